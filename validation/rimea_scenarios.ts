/**
 * The geometries and populations of the RiMEA 3.0 test cases (RiMEA e.V., "Richtlinie für
 * Mikroskopische Entfluchtungsanalysen / Guideline for Microscopic Evacuation Analysis",
 * version 3.0.0, 2016), as throng scenarios. Where the guideline's figure leaves a dimension
 * open, the value follows JuPedSim's implementation of the tests (PedestrianDynamics/jupedsim,
 * `Utest/rimea_tests/`) and is named in the doc of each builder.
 *
 * Coordinates in metres; every scenario walks along +x unless said otherwise.
 *
 * @module
 */
import type { ScenarioSpec } from "../scenarios/schema.ts";

type Pt = [number, number];
const rect = (
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): Pt[] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];

/** Test 1: one person, 1.33 m/s, along a corridor 40 m long and 2 m wide. */
export function rimea1Corridor(): ScenarioSpec {
  return {
    name: "rimea-1",
    dt: 0.05,
    duration: 60,
    bounds: [-1, -1, 44, 1],
    walls: [[[-1, -1], [44, -1]], [[-1, 1], [44, 1]], [[-1, -1], [-1, 1]]],
    goals: { end: { rect: [42, -0.5, 43, 0.5] } },
    spawners: [{
      area: { point: [0, 0] },
      count: 1,
      goal: "end",
      agents: { desiredSpeed: 1.33, maxAcceleration: 8 },
    }],
  };
}

/** Tread depth (m) of the test stairs. */
export const RIMEA_TREAD = 0.29;
/** Riser height (m) of the test stairs. */
export const RIMEA_RISER = 0.17;
/** Plan length of the staircase of tests 2 and 3 (m). */
export const RIMEA_STAIR_LENGTH = 10;

/**
 * Tests 2 and 3: one person up (`ascending`) or down a staircase 10 m long in plan and 2 m
 * wide (tread 0.29 m, riser 0.17 m), with 3 m landings; navigation mesh.
 */
export function rimeaStairs(ascending: boolean): ScenarioSpec {
  const rise = (RIMEA_STAIR_LENGTH / RIMEA_TREAD) * RIMEA_RISER, x0 = 0, x1 = RIMEA_STAIR_LENGTH;
  const zLow = ascending ? 0 : rise, zHigh = ascending ? rise : 0;
  return {
    name: ascending ? "rimea-2" : "rimea-3",
    dt: 0.05,
    duration: 120,
    bounds: [x0 - 3, -1, x1 + 3, 1],
    goals: { top: { rect: [x1 + 1.5, -0.5, x1 + 2.5, 0.5] } },
    spawners: [{
      area: { point: [x0 - 2, 0] },
      count: 1,
      goal: "top",
      z: zLow,
      agents: { desiredSpeed: 1.34, maxAcceleration: 8 },
    }],
    navigation: {
      navmesh: {
        surfaces: [
          { name: "start", polygon: [rect(x0 - 3, -1, x0, 1)], z: zLow },
          {
            name: "stairs",
            polygon: [rect(x0, -1, x1, 1)],
            slope: { from: [x0, 0], to: [x1, 0], zFrom: zLow, zTo: zHigh },
            stairs: { treadDepth: RIMEA_TREAD, riserHeight: RIMEA_RISER },
          },
          { name: "end", polygon: [rect(x1, -1, x1 + 3, 1)], z: zHigh },
        ],
        clearance: 0.25,
        minWidth: 0.6,
      },
    },
  };
}

/** Test 5: 10 persons in a room 8 m × 5 m with a 1 m door (their start is held back by the test). */
export function rimea5Room(): ScenarioSpec {
  return {
    name: "rimea-5",
    dt: 0.05,
    duration: 160,
    bounds: [-8, -2.5, 4, 2.5],
    walls: [[[0, 0.5], [0, 2.5], [-8, 2.5], [-8, -2.5], [0, -2.5], [0, -0.5]]],
    goals: { out: { rect: [2, -1, 3, 1] } },
    spawners: [{
      area: { rect: [-7.5, -2, -1, 2] },
      count: 10,
      goal: "out",
      via: [[[0, -0.5], [0, 0.5]]],
    }],
  };
}

/**
 * Test 6: 20 persons walk round a left-hand corner of a 2 m wide corridor (legs 12 m along the
 * outer walls), on the navigation mesh.
 */
export function rimea6Corner(): ScenarioSpec {
  const outline: Pt[] = [[0, 0], [12, 0], [12, 12], [10, 12], [10, 2], [0, 2]];
  return {
    name: "rimea-6",
    dt: 0.05,
    duration: 120,
    bounds: [0, 0, 12, 12],
    goals: { end: { rect: [10.3, 10.5, 11.7, 11.7] } },
    spawners: [{ area: { rect: [0.3, 0.3, 8.5, 1.7] }, count: 20, goal: "end" }],
    navigation: { navmesh: { walkable: [[outline]], clearance: 0.25, minWidth: 0.6 } },
  };
}

/**
 * Walking-speed ranges (m/s) of the RiMEA age groups (guideline table after Weidmann 1993): under
 * 30, 30–50, over 50, and persons with limited mobility.
 */
export const RIMEA_SPEED_GROUPS: readonly { name: string; min: number; max: number }[] = [
  { name: "under 30", min: 0.58, max: 1.61 },
  { name: "30 to 50", min: 1.41, max: 1.54 },
  { name: "over 50", min: 0.68, max: 1.41 },
  { name: "limited mobility", min: 0.46, max: 0.76 },
];

/** Persons per age group in test 7 (of {@linkcode RIMEA_SPEED_GROUPS}, in order): 50 in all. */
export const RIMEA7_GROUP_COUNTS: readonly number[] = [13, 13, 12, 12];

/** Lateral spacing of test 7's walkers (m): wide enough that no one walks in another's way. */
export const RIMEA7_LANE_SPACING = 1.5;

/**
 * Test 7: 50 persons, about a quarter of each age group with a uniform speed in its range, start
 * side by side ({@linkcode RIMEA7_LANE_SPACING} apart) and walk 34 m straight ahead, each to a
 * goal in its own lane. RiMEA gives no geometry for this test (it is about how speeds are
 * allocated), so nobody walks in another's way and each walked speed shows the allocated one.
 * Spawner `k` holds one person; {@linkcode rimea7GroupOf} gives its age group.
 */
export function rimea7Demography(): ScenarioSpec {
  const total = RIMEA7_GROUP_COUNTS.reduce((a, b) => a + b, 0);
  const half = (total - 1) * RIMEA7_LANE_SPACING / 2;
  const width = half + 1;
  return {
    name: "rimea-7",
    dt: 0.05,
    duration: 120,
    bounds: [-2, -width, 35, width],
    walls: [[[-2, -width], [35, -width]], [[-2, width], [35, width]]],
    spawners: Array.from({ length: total }, (_, k) => {
      const g = RIMEA_SPEED_GROUPS[rimea7GroupOf(k)];
      const y = -half + k * RIMEA7_LANE_SPACING;
      return {
        name: `${g.name} ${k}`,
        area: { rect: [-0.5, y - 0.5, 0.5, y + 0.5] },
        count: 1,
        goal: { rect: [31, y - 0.3, 34, y + 0.3] },
        agents: { desiredSpeed: { uniform: { min: g.min, max: g.max } } },
      };
    }),
  };
}

/** The age group (index into {@linkcode RIMEA_SPEED_GROUPS}) of test 7's spawner `k`. */
export function rimea7GroupOf(k: number): number {
  let first = 0;
  for (let g = 0; g < RIMEA7_GROUP_COUNTS.length; g++) {
    first += RIMEA7_GROUP_COUNTS[g];
    if (k < first) return g;
  }
  throw new RangeError(`test 7 has no spawner ${k}`);
}

/** Test 8 (parameter study): 60 persons leave a 10 m × 10 m room through a 2 m door at mean speed `meanSpeed`. */
export function rimea8Room(meanSpeed: number): ScenarioSpec {
  return {
    name: `rimea-8-${meanSpeed}`,
    dt: 0.05,
    duration: 300,
    bounds: [-10, -5, 6, 5],
    walls: [[[0, 1], [0, 5], [-10, 5], [-10, -5], [0, -5], [0, -1]]],
    goals: { out: { rect: [4, -3, 6, 3] } },
    spawners: [{
      area: { rect: [-9.6, -4.6, -0.5, 4.6] },
      count: 60,
      goal: "out",
      via: [[[0, -1], [0, 1]]],
      agents: {
        desiredSpeed: {
          normal: {
            mean: meanSpeed,
            sd: 0.26 * meanSpeed / 1.34,
            min: 0.5 * meanSpeed / 1.34,
            max: 2 * meanSpeed / 1.34,
          },
        },
      },
    }],
  };
}

/**
 * Test 9: a room 30 m × 20 m with four 1 m exits (two in the west wall, two in the east wall,
 * 3 m from the corners) holds `persons` persons (1000 in the guideline); with `open` 2, the
 * east exits are closed. Each person heads for the nearest open exit. `scale` < 1 shrinks the
 * room and the crowd alike (quick variant). At 1.7 persons/m², random placement leaves a few
 * percent to enter as soon as there is room, within the first seconds.
 */
export function rimea9Room(open: 2 | 4, scale = 1): ScenarioSpec {
  const w = 30 * scale, h = 20 * scale, persons = Math.round(1000 * scale * scale);
  const yLow = 3 * scale, yHigh = h - 3 * scale;
  const walls: Pt[][] = [
    [[0, yLow - 0.5], [0, 0], [w, 0], [w, yLow - 0.5]],
    [[0, yLow + 0.5], [0, yHigh - 0.5]],
    [[0, yHigh + 0.5], [0, h], [w, h], [w, yHigh + 0.5]],
    open === 4 ? [[w, yLow + 0.5], [w, yHigh - 0.5]] : [[w, yLow - 0.5], [w, yHigh + 0.5]],
  ];
  const exits: { name: string; x: number; y: number; outside: number }[] = [
    { name: "west-south", x: 0, y: yLow, outside: -1 },
    { name: "west-north", x: 0, y: yHigh, outside: -1 },
    ...(open === 4
      ? [{ name: "east-south", x: w, y: yLow, outside: 1 }, {
        name: "east-north",
        x: w,
        y: yHigh,
        outside: 1,
      }]
      : []),
  ];
  // Persons fill the room evenly; each region of the room sends its persons to its nearest exit.
  const regions: { exit: number; box: [number, number, number, number] }[] = open === 4
    ? [
      { exit: 0, box: [0.3, 0.3, w / 2, h / 2] },
      { exit: 1, box: [0.3, h / 2, w / 2, h - 0.3] },
      { exit: 2, box: [w / 2, 0.3, w - 0.3, h / 2] },
      { exit: 3, box: [w / 2, h / 2, w - 0.3, h - 0.3] },
    ]
    : [{ exit: 0, box: [0.3, 0.3, w - 0.3, h / 2] }, {
      exit: 1,
      box: [0.3, h / 2, w - 0.3, h - 0.3],
    }];
  const goals: Record<string, { rect: [number, number, number, number] }> = {};
  for (const e of exits) {
    const x0 = e.x + e.outside * 2, x1 = e.x + e.outside * 4;
    goals[e.name] = { rect: [Math.min(x0, x1), e.y - 1.5, Math.max(x0, x1), e.y + 1.5] };
  }
  const share = persons / regions.length;
  return {
    name: `rimea-9-${open}-exits`,
    dt: 0.05,
    duration: 1200,
    bounds: [-5, -1, w + 5, h + 1],
    walls,
    goals,
    spawners: regions.map((r, k) => ({
      name: `region ${k}`,
      area: { rect: r.box },
      count: Math.round(share * (k + 1)) - Math.round(share * k),
      goal: exits[r.exit].name,
      via: [[[exits[r.exit].x, exits[r.exit].y - 0.5], [
        exits[r.exit].x,
        exits[r.exit].y + 0.5,
      ]]] as [Pt, Pt][],
    })),
  };
}

/** The exits of test 10: west and east ends of the corridor. */
export const RIMEA10_EXITS = {
  west: [-3.5, -0.8, -2, 0.8] as [number, number, number, number],
  east: [32, -0.8, 33.5, 0.8] as [number, number, number, number],
};

/**
 * Test 10: twelve rooms of 5 m × 5 m on both sides of a 2 m corridor 30 m long, doors 1 m, exits
 * at both ends (the corridor runs on 4 m past each end); the persons of rooms 1, 2, 3, 4, 7, 8,
 * 9, 10 are allocated the west exit, those of rooms 5, 6, 11, 12 the east exit (after the
 * guideline's figure); 23 persons in all. On the navigation mesh (0.1 m walls between rooms),
 * with the `exit-choice` navigator given no exits to choose among: everyone keeps the exit
 * allocated to them, however near the other is.
 */
export function rimea10Rooms(): ScenarioSpec {
  const rooms: ScenarioSpec["spawners"] = [];
  const counts = [1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2];
  const walkable: Pt[][][] = [[rect(-4, -1, 34, 1)]];
  for (let k = 0; k < 12; k++) {
    const col = k % 6, south = k < 6, x0 = 5 * col, y0 = south ? -6 : 1;
    const east = col >= 4;
    rooms.push({
      name: `room ${k + 1}`,
      area: { rect: [x0 + 0.5, y0 + 0.5, x0 + 4.5, y0 + 4.5] },
      count: counts[k],
      goal: east ? "east" : "west",
    });
    walkable.push([rect(x0 + 0.1, y0 + (south ? 0 : 0.1), x0 + 4.9, y0 + (south ? 4.9 : 5))]);
    walkable.push([rect(x0 + 2, south ? -1.2 : 0.9, x0 + 3, south ? -0.9 : 1.2)]);
  }
  return {
    name: "rimea-10",
    dt: 0.05,
    duration: 120,
    bounds: [-4, -6, 34, 6],
    goals: { west: { rect: RIMEA10_EXITS.west }, east: { rect: RIMEA10_EXITS.east } },
    spawners: rooms,
    navigation: { navmesh: { walkable, clearance: 0.2, minWidth: 0.5 } },
    navigator: { name: "exit-choice", options: { exits: [] } },
  };
}

/** The exits of test 11 beyond its two doors: the near (y 2.5–3.5) and the far (y 6.5–7.5). */
export const RIMEA11_EXITS: [number, number, number, number][] = [
  [32, 1.5, 34, 4.5],
  [32, 5.5, 34, 8.5],
];

/** Number of persons of test 11 (the guideline's 1000). */
export const RIMEA11_PERSONS = 1000;

/**
 * Test 11: a room 30 m × 20 m with two 1 m doors in its east wall, 3 m apart near one corner,
 * each into a passage 1 m long and an area outside; `persons` (1000) fill the room, all starting
 * out for the near exit. On the navigation mesh with the `exit-choice` navigator choosing between
 * the two exits (distance and queue).
 */
export function rimea11Room(persons = RIMEA11_PERSONS): ScenarioSpec {
  return {
    name: "rimea-11",
    dt: 0.05,
    duration: 900,
    bounds: [0, 0, 35, 20],
    goals: { near: { rect: RIMEA11_EXITS[0] }, far: { rect: RIMEA11_EXITS[1] } },
    spawners: [{ area: { rect: [0.3, 0.3, 29.7, 19.7] }, count: persons, goal: "near" }],
    navigation: {
      navmesh: {
        walkable: [
          [rect(0, 0, 30, 20)],
          [rect(29.9, 2.5, 31.1, 3.5)],
          [rect(29.9, 6.5, 31.1, 7.5)],
          [rect(31, 0.5, 35, 9.5)],
        ],
        clearance: 0.2,
        minWidth: 0.5,
      },
    },
    navigator: { name: "exit-choice", options: { exits: RIMEA11_EXITS } },
  };
}

/**
 * Test 12: 150 persons leave a room of 10 m × 10 m through a corridor 5 m long and 1 m wide
 * into a second room of 10 m × 10 m, which they leave through a 1 m exit (JuPedSim's geometry).
 */
export function rimea12Rooms(): ScenarioSpec {
  return {
    name: "rimea-12",
    dt: 0.05,
    duration: 400,
    bounds: [0, -5, 29, 5],
    walls: [
      [[10, 0.5], [10, 5], [0, 5], [0, -5], [10, -5], [10, -0.5]],
      [[10, 0.5], [15, 0.5]],
      [[10, -0.5], [15, -0.5]],
      [[15, 0.5], [15, 5], [25, 5], [25, 0.5]],
      [[15, -0.5], [15, -5], [25, -5], [25, -0.5]],
    ],
    goals: { out: { rect: [27, -2, 29, 2] } },
    spawners: [{
      area: { rect: [0.4, -4.6, 9.6, 4.6] },
      count: 150,
      goal: "out",
      via: [[[10, -0.5], [10, 0.5]], [[15, -0.5], [15, 0.5]], [[25, -0.5], [25, 0.5]]],
    }],
  };
}

/**
 * Test 13: 150 persons leave a room of 12 m × 8 m through a 2 m opening into a corridor 12 m
 * long and 2 m wide that ends in a staircase going up (3 m in plan, tread 0.29 m, riser 0.17 m)
 * to a landing (JuPedSim's geometry, with a 0.29 m × 0.17 m stair instead of its 45° slope and a
 * room 12 m instead of 5 m deep: 150 bodies of 0.25 m placed at random do not fit in 5 m × 8 m).
 */
export function rimea13Stairs(): ScenarioSpec {
  const rise = (3 / RIMEA_TREAD) * RIMEA_RISER;
  const hall: Pt[] = [[-12, -3], [0, -3], [0, 0], [12, 0], [12, 2], [0, 2], [0, 5], [-12, 5]];
  return {
    name: "rimea-13",
    dt: 0.05,
    duration: 600,
    bounds: [-12, -3, 18, 5],
    goals: { top: { rect: [16, 0.3, 17.6, 1.7] } },
    spawners: [{ area: { rect: [-11.7, -2.7, -0.3, 4.7] }, count: 150, goal: "top", z: 0 }],
    navigation: {
      navmesh: {
        surfaces: [
          { name: "hall", polygon: [hall], z: 0 },
          {
            name: "stairs",
            polygon: [rect(12, 0, 15, 2)],
            slope: { from: [12, 1], to: [15, 1], zFrom: 0, zTo: rise },
            stairs: { treadDepth: RIMEA_TREAD, riserHeight: RIMEA_RISER },
          },
          { name: "landing", polygon: [rect(15, 0, 18, 2)], z: rise },
        ],
        clearance: 0.25,
        minWidth: 0.6,
      },
    },
  };
}

/** Gateways of test 14's routes: the short route's lower passage (south), the long route's (north). */
export const RIMEA14_GATEWAYS: readonly [number, number, number, number][] = [
  [15, -10, 25, -8],
  [15, 12, 25, 14],
];

/**
 * Test 14, route choice, in plan: 100 persons go from a start area west of a 20 m block to a
 * goal east of it. The short route passes south of the block through a 2 m passage that goes
 * down a stair (3 m in plan, tread 0.29 m, riser 0.17 m), along a lower level and up again; the
 * long route passes north of it, level, through a 2 m passage about 5 m further. People choose
 * their gateway with the `exit-choice` navigator's route choice (walking distance and queue).
 */
export function rimea14Routes(): ScenarioSpec {
  const rise = (3 / RIMEA_TREAD) * RIMEA_RISER;
  const stairs = { treadDepth: RIMEA_TREAD, riserHeight: RIMEA_RISER };
  // The level floor: everything but the block and the sunken part of the south passage.
  const level: Pt[] = [
    [0, -10],
    [12, -10],
    [12, -8],
    [10, -8],
    [10, 12],
    [30, 12],
    [30, -8],
    [28, -8],
    [28, -10],
    [40, -10],
    [40, 14],
    [0, 14],
  ];
  return {
    name: "rimea-14",
    dt: 0.05,
    duration: 300,
    bounds: [0, -10, 40, 14],
    goals: { goal: { rect: [36, -2, 39, 2] } },
    spawners: [{ area: { rect: [1, -6, 8, 6] }, count: 100, goal: "goal", z: 0 }],
    navigation: {
      navmesh: {
        surfaces: [
          { name: "level", polygon: [level], z: 0 },
          {
            name: "stairs down",
            polygon: [rect(12, -10, 15, -8)],
            slope: { from: [12, -9], to: [15, -9], zFrom: 0, zTo: -rise },
            stairs,
          },
          { name: "lower passage", polygon: [rect(15, -10, 25, -8)], z: -rise },
          {
            name: "stairs up",
            polygon: [rect(25, -10, 28, -8)],
            slope: { from: [25, -9], to: [28, -9], zFrom: -rise, zTo: 0 },
            stairs,
          },
        ],
        clearance: 0.25,
        minWidth: 0.6,
      },
    },
    navigator: { name: "exit-choice", options: { via: RIMEA14_GATEWAYS } },
  };
}

/** Number of persons of test 15 (the guideline's 500). */
export const RIMEA15_PERSONS = 500;

/** Length of the centre line round test 15's corner (m): the mean of its inner and outer edges. */
export const RIMEA15_CENTRE_LENGTH = 67;

/**
 * Test 15: a large crowd walks along 20 m wide corridors: round a 90° corner (inner edge 50 m,
 * outer edge about 84 m with the chamfered outer corner of JuPedSim's geometry), and, for
 * comparison, straight corridors as long as the inner (50 m) and outer (81 m) edges. All three
 * on the navigation mesh. The start area is 15 m deep instead of JuPedSim's 6 m, so that 500
 * bodies of 0.25 m placed at random fit (1.8 persons/m²); the corridors are 9 m longer accordingly. `persons`
 * smaller than 500 shrinks the start area (quick variant).
 */
export function rimea15Corridors(
  kind: "corner" | "short" | "long",
  persons = RIMEA15_PERSONS,
): ScenarioSpec {
  const depth = Math.max(3, (15 * persons) / RIMEA15_PERSONS);
  const start: [number, number, number, number] = [0.4, 0, 19.6, depth];
  if (kind === "corner") {
    // Start at the top of the vertical leg (y up to 60 + depth), turn east at y = 0…20.
    const top = 60 + depth;
    const outline: Pt[] = [[0, 10], [10, 0], [30, 0], [30, 20], [20, 20], [20, top], [0, top]];
    return {
      name: "rimea-15-corner",
      dt: 0.05,
      duration: 900,
      bounds: [0, 0, 30, top],
      goals: { exit: { rect: [27, 0.5, 29.5, 19.5] } },
      spawners: [{
        area: { rect: [0.4, 60 + 0.2, 19.6, top - 0.2] },
        count: persons,
        goal: "exit",
      }],
      navigation: { navmesh: { walkable: [[outline]], clearance: 0.25, minWidth: 0.6 } },
    };
  }
  const length = kind === "short" ? 50 : 81;
  const top = length + depth;
  return {
    name: `rimea-15-${kind}`,
    dt: 0.05,
    duration: 900,
    bounds: [0, 0, 20, top],
    goals: { exit: { rect: [0.5, 0.5, 19.5, 2.5] } },
    spawners: [{
      area: { rect: [start[0], length + 0.2, start[2], top - 0.2] },
      count: persons,
      goal: "exit",
    }],
    navigation: { navmesh: { walkable: [[rect(0, 0, 20, top)]], clearance: 0.25, minWidth: 0.6 } },
  };
}
