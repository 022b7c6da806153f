/**
 * Python's round(x, digits): the exact binary value rounded, ties to even. toFixed rounds ties
 * away from zero, so a tie (0.125 → 0.12 in Python, "0.13" from toFixed) is detected on the
 * exact decimal expansion and resolved to the even neighbour.
 */
export function roundHalfEven(x: number, digits: number): number {
  const exact = Math.abs(x).toFixed(60);
  const point = exact.indexOf(".");
  const kept = exact.slice(0, point + 1 + digits);
  const rest = exact.slice(point + 1 + digits);
  const tie = /^50*$/.test(rest);
  const rounded = Number(Math.abs(x).toFixed(digits));
  if (!tie) return Math.sign(x) * rounded;
  const lastDigit = Number(kept[kept.length - 1] === "." ? kept[kept.length - 2] : kept[kept.length - 1]);
  const down = Number(kept);
  return Math.sign(x) * (lastDigit % 2 === 0 ? down : rounded);
}
