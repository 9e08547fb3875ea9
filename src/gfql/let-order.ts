// Orders Let bindings topologically over their Ref dependencies (Kahn's algorithm with a queue, as pygraphistry's).

import type { Binding, LetQuery } from "./ast.ts";
import { gfqlError, sub } from "./gfql-error.ts";

/** Names a binding refers to that are not bound inside it (nested Lets are lexically scoped). */
export function freeRefs(binding: Binding, out: Set<string> = new Set()): Set<string> {
  if (binding.type === "Ref") out.add(binding.ref);
  if (binding.type === "Let") {
    const inner = new Set<string>();
    for (const b of binding.bindings) freeRefs(b.value, inner);
    const bound = new Set(binding.bindings.map((b) => b.name));
    for (const name of inner) if (!bound.has(name)) out.add(name);
  }
  return out;
}

/**
 * Returns the bindings' indices in execution order. A Ref to a name of this Let is a dependency; a Ref to a
 * name only in `outer` is resolved by the enclosing scope; any other Ref is an error (E151), and cycles are E153.
 */
export function letOrder(query: LetQuery, path: string, outer: ReadonlySet<string> = new Set()): number[] {
  const index = new Map(query.bindings.map((b, i) => [b.name, i]));
  const deps = query.bindings.map((b) => {
    const local: number[] = [];
    for (const ref of freeRefs(b.value)) {
      const i = index.get(ref);
      if (i !== undefined) local.push(i);
      else if (!outer.has(ref)) {
        throw gfqlError("E151", `Ref '${ref}' names no binding in scope`, sub(path, `bindings.${b.name}`));
      }
    }
    return local;
  });
  const remaining = deps.map((d) => new Set(d).size);
  const dependents = query.bindings.map(() => [] as number[]);
  deps.forEach((d, i) => {
    for (const j of new Set(d)) dependents[j]?.push(i);
  });
  // pygraphistry's topological_sort (chain_let.py): a queue, first in first out, starting with the bindings that
  // depend on none in declaration order; a binding joins its end once its last dependency has run (dependents
  // taken in declaration order). The Let answers the last binding run, so the order decides the answer.
  const done: number[] = [];
  const queue: number[] = [];
  remaining.forEach((n, i) => {
    if (n === 0) queue.push(i);
  });
  for (let head = 0; head < queue.length; head++) {
    const next = queue[head] as number;
    done.push(next);
    for (const d of dependents[next] ?? []) {
      const left = (remaining[d] ?? 0) - 1;
      remaining[d] = left;
      if (left === 0) queue.push(d);
    }
  }
  if (done.length < query.bindings.length) {
    const stuck = query.bindings.filter((_, i) => !done.includes(i)).map((b) => b.name);
    throw gfqlError("E153", `circular Ref between bindings ${stuck.join(", ")}`, sub(path, "bindings"));
  }
  return done;
}
