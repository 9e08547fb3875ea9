// How deeply a parsed JSON value nests, measured without recursion (a 20,000-deep value must not overflow the stack).

/** The nesting depth of `value` past `max`, or undefined when it stays within (scalars are depth 0, `[]` is 1). */
export function jsonDepthBeyond(value: unknown, max: number): number | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== "object") continue;
    const inner = depth + 1;
    if (inner > max) return inner;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) if (child !== null && typeof child === "object") stack.push([child, inner]);
  }
  return undefined;
}
