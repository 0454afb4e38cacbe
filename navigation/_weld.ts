/**
 * Vertex welding: points closer than a tolerance are replaced by the first of them (as in Aleksandrov, Heslop and Zlatanova (2021),
 * welds navigation-mesh vertices within 1 mm). Build-time only.
 *
 * @module
 */

/** Largest cell coordinate that keeps numeric hash keys exact. */
const KEY_LIMIT = 1 << 26;

/**
 * Maps every point `i` of `xy` (`[x0, y0, x1, y1, …]`, m) to the index of the first earlier point
 * within `tolerance` (m) of it, or to itself. Chains are not followed: a point is compared with
 * representatives only, so welding never drifts further than `tolerance` from a representative.
 */
export function weldPoints(xy: Float64Array, tolerance: number): Int32Array {
  const n = xy.length >> 1;
  const cell = tolerance > 0 ? tolerance : 1;
  for (let i = 0; i < n; i++) {
    const cx = Math.floor(xy[2 * i] / cell), cy = Math.floor(xy[2 * i + 1] / cell);
    if (!(Math.abs(cx) < KEY_LIMIT && Math.abs(cy) < KEY_LIMIT)) {
      return weldPointsByMap(xy, tolerance);
    }
  }
  // Cells in an open-addressing table; each holds its representatives as a linked list in
  // insertion order (head, tail, next), so the first match is the one a list scan finds.
  let size = 16;
  while (size < 2 * n) size *= 2;
  const mask = size - 1;
  const keyX = new Int32Array(size), keyY = new Int32Array(size);
  const head = new Int32Array(size).fill(-1), tail = new Int32Array(size);
  const next = new Int32Array(n).fill(-1);
  const ids = new Int32Array(n);
  const tol2 = tolerance * tolerance;
  const slotOf = (cx: number, cy: number): number => {
    let h = (Math.imul(cx, 0x9e3779b1) ^ Math.imul(cy, 0x85ebca6b)) >>> 0;
    h ^= h >>> 16;
    for (let s = h & mask;; s = (s + 1) & mask) {
      if (head[s] < 0 || (keyX[s] === cx && keyY[s] === cy)) return s;
    }
  };
  for (let i = 0; i < n; i++) {
    const x = xy[2 * i], y = xy[2 * i + 1];
    const cx = Math.floor(x / cell), cy = Math.floor(y / cell);
    let found = -1;
    if (tolerance > 0) {
      for (let dx = -1; dx <= 1 && found < 0; dx++) {
        for (let dy = -1; dy <= 1 && found < 0; dy++) {
          for (let j = head[slotOf(cx + dx, cy + dy)]; j >= 0; j = next[j]) {
            const ex = xy[2 * j] - x, ey = xy[2 * j + 1] - y;
            if (ex * ex + ey * ey <= tol2) {
              found = j;
              break;
            }
          }
        }
      }
    } else {
      for (let j = head[slotOf(cx, cy)]; j >= 0; j = next[j]) {
        if (xy[2 * j] === x && xy[2 * j + 1] === y) {
          found = j;
          break;
        }
      }
    }
    if (found >= 0) {
      ids[i] = found;
      continue;
    }
    ids[i] = i;
    const s = slotOf(cx, cy);
    if (head[s] < 0) {
      keyX[s] = cx;
      keyY[s] = cy;
      head[s] = i;
    } else next[tail[s]] = i;
    tail[s] = i;
  }
  return ids;
}

/** {@linkcode weldPoints} with a Map of cells: for coordinates too far out for integer cell keys. */
export function weldPointsByMap(xy: Float64Array, tolerance: number): Int32Array {
  const n = xy.length >> 1;
  const ids = new Int32Array(n);
  const cell = tolerance > 0 ? tolerance : 1;
  const buckets = new Map<number | string, number[]>();
  const tol2 = tolerance * tolerance;
  let numeric = true;
  for (let i = 0; i < n; i++) {
    const cx = Math.floor(xy[2 * i] / cell), cy = Math.floor(xy[2 * i + 1] / cell);
    if (Math.abs(cx) >= KEY_LIMIT || Math.abs(cy) >= KEY_LIMIT) numeric = false;
  }
  const key = (cx: number, cy: number): number | string =>
    numeric ? cx * 2 * KEY_LIMIT + cy : `${cx},${cy}`;
  for (let i = 0; i < n; i++) {
    const x = xy[2 * i], y = xy[2 * i + 1];
    const cx = Math.floor(x / cell), cy = Math.floor(y / cell);
    let found = -1;
    if (tolerance > 0) {
      for (let dx = -1; dx <= 1 && found < 0; dx++) {
        for (let dy = -1; dy <= 1 && found < 0; dy++) {
          const list = buckets.get(key(cx + dx, cy + dy));
          if (!list) continue;
          for (const j of list) {
            const ex = xy[2 * j] - x, ey = xy[2 * j + 1] - y;
            if (ex * ex + ey * ey <= tol2) {
              found = j;
              break;
            }
          }
        }
      }
    } else {
      const list = buckets.get(key(cx, cy));
      if (list) {
        for (const j of list) {
          if (xy[2 * j] === x && xy[2 * j + 1] === y) {
            found = j;
            break;
          }
        }
      }
    }
    if (found >= 0) {
      ids[i] = found;
      continue;
    }
    ids[i] = i;
    const k = key(cx, cy);
    const list = buckets.get(k);
    if (list) list.push(i);
    else buckets.set(k, [i]);
  }
  return ids;
}
