import { invalidArgument } from '../../errors.js';

/**
 * Static limits on a parsed policy schema, checked before Ajv compiles it (docs/security.md,
 * "Validation budget"). Validation cost is bounded by what the schema expands to, not by its
 * text: a chain of `$defs` each `allOf`-ing two `$ref`s to the previous one is 2 KB of text and
 * 2^n subschemas of work per value.
 */

/** Most `allOf` / `anyOf` / `oneOf` branches a schema may hold, counted in its text. */
// Ajv compiles 2 000 branches in about 2 s on one core: near the compile budget, far above the
// few hundred a real schema holds.
export const MAX_POLICY_SCHEMA_BRANCHES = 2_000;
/** Most subschemas the schema expands to with every `$ref` inlined once per use. */
export const MAX_POLICY_SCHEMA_EXPANDED = 100_000;

// Keywords whose subschemas apply to the same instance location (JSON Schema 2020-12 Core §10.2):
// a reference cycle made only of these recurses forever, whatever the value.
const IN_PLACE_ARRAYS = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_SINGLE = ['not', 'if', 'then', 'else'];
// (`dependencies` is draft 7's dependentSchemas, and Ajv applies it under 2020-12 too.)
const IN_PLACE_MAPS = ['dependentSchemas', 'dependencies'];
// Keywords whose subschemas apply to a child of the instance (Core §10.3, Validation §6.5…): a
// cycle through one of these descends the value at each turn, so the value bounds it.
const CHILD_SINGLE = [
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const CHILD_ARRAYS = ['prefixItems', 'items'];
const CHILD_MAPS = ['properties', 'patternProperties'];
const BRANCH_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf']);
// Places that hold subschemas without applying them; references reach into them.
const HOLDER_MAPS = ['$defs', 'definitions'];

const ROOT_BASE = 'https://policy.invalid/schema.json';

interface Edge {
  readonly to: Node;
  /** The edge descends into a child of the instance (bounds recursion). */
  readonly child: boolean;
}

interface Node {
  readonly schema: unknown;
  readonly base: string;
  readonly edges: Edge[];
  refs: string[];
  dynamicRefs: string[];
}

/**
 * Refuses (InvalidArgument on `field`, naming the limit) a schema with too many branches, one
 * whose expansion is too large, or one whose references apply in place in a cycle.
 */
export function checkSchemaLimits(schema: unknown, field: string): void {
  const graph = buildGraph(schema);
  if (graph.branches > MAX_POLICY_SCHEMA_BRANCHES) {
    throw invalidArgument(
      field,
      `holds ${graph.branches} allOf/anyOf/oneOf branches; a policy schema may hold at most ` +
        `${MAX_POLICY_SCHEMA_BRANCHES} (the branch limit)`,
    );
  }
  resolveReferences(graph);
  const expanded = expandedSize(graph.root, field);
  if (expanded > MAX_POLICY_SCHEMA_EXPANDED) {
    throw invalidArgument(
      field,
      `expands to more than ${MAX_POLICY_SCHEMA_EXPANDED} subschemas with its $refs inlined ` +
        `(the expansion limit); share definitions instead of nesting references to references`,
    );
  }
}

interface Graph {
  root: Node;
  nodes: Node[];
  /** Each schema object → its node (references find their target by walking the text). */
  byObject: Map<object, Node>;
  branches: number;
  /** Absolute URI (no fragment) → the resource's root node. */
  resources: Map<string, Node>;
  /** Absolute URI with a plain-name fragment ($anchor) → node. */
  anchors: Map<string, Node>;
  /** $dynamicAnchor / $recursiveAnchor name → nodes. */
  dynamicAnchors: Map<string, Node[]>;
}

function buildGraph(rootSchema: unknown): Graph {
  const graph: Graph = {
    root: undefined as unknown as Node,
    nodes: [],
    byObject: new Map(),
    branches: 0,
    resources: new Map(),
    anchors: new Map(),
    dynamicAnchors: new Map(),
  };
  const pending: Array<{ schema: unknown; base: string; from?: Edge[]; child: boolean }> = [
    { schema: rootSchema, base: ROOT_BASE, child: false },
  ];
  while (pending.length > 0) {
    const { schema, base: parentBase, from, child } = pending.pop()!;
    const object = isObject(schema) ? schema : undefined;
    let base = parentBase;
    if (object && typeof object['$id'] === 'string') base = resolveUri(object['$id'], parentBase);
    const node: Node = { schema, base, edges: [], refs: [], dynamicRefs: [] };
    graph.nodes.push(node);
    if (from) from.push({ to: node, child });
    else graph.root = node;
    if (!object) continue;
    graph.byObject.set(object, node);
    if (from === undefined || typeof object['$id'] === 'string') {
      graph.resources.set(withoutFragment(base), node);
    }
    if (typeof object['$anchor'] === 'string') {
      graph.anchors.set(`${withoutFragment(base)}#${object['$anchor']}`, node);
    }
    for (const name of dynamicAnchorNames(object)) {
      graph.dynamicAnchors.set(name, [...(graph.dynamicAnchors.get(name) ?? []), node]);
    }
    if (typeof object['$ref'] === 'string') node.refs.push(resolveUri(object['$ref'], base));
    if (typeof object['$dynamicRef'] === 'string') node.dynamicRefs.push(object['$dynamicRef']);
    if (typeof object['$recursiveRef'] === 'string') node.dynamicRefs.push('#');

    const push = (sub: unknown, isChild: boolean, edges: Edge[] | undefined = node.edges) =>
      pending.push({ schema: sub, base, from: edges, child: isChild });
    for (const keyword of IN_PLACE_ARRAYS) {
      const list = object[keyword];
      if (!Array.isArray(list)) continue;
      if (BRANCH_KEYWORDS.has(keyword)) graph.branches += list.length;
      for (const sub of list) push(sub, false);
    }
    for (const keyword of IN_PLACE_SINGLE) if (keyword in object) push(object[keyword], false);
    for (const keyword of IN_PLACE_MAPS) eachValue(object[keyword], (sub) => push(sub, false));
    for (const keyword of CHILD_SINGLE) {
      if (keyword in object && !Array.isArray(object[keyword])) push(object[keyword], true);
    }
    for (const keyword of CHILD_ARRAYS) {
      const list = object[keyword];
      if (Array.isArray(list)) for (const sub of list) push(sub, true);
    }
    for (const keyword of CHILD_MAPS) eachValue(object[keyword], (sub) => push(sub, true));
    // Definitions are not applied where they stand: no edge, but they are indexed and walked.
    const detached: Edge[] = [];
    for (const keyword of HOLDER_MAPS)
      eachValue(object[keyword], (sub) => push(sub, false, detached));
  }
  return graph;
}

function resolveReferences(graph: Graph): void {
  const byPointer = (uri: string): Node | undefined => {
    const hash = uri.indexOf('#');
    const document = hash < 0 ? uri : uri.slice(0, hash);
    const fragment = hash < 0 ? '' : decodeURIComponent(uri.slice(hash + 1));
    const resource = graph.resources.get(document);
    if (!resource) return undefined;
    if (fragment === '') return resource;
    if (!fragment.startsWith('/')) return graph.anchors.get(`${document}#${fragment}`);
    return nodeAt(graph, resource, fragment);
  };
  for (const node of graph.nodes) {
    for (const ref of node.refs) {
      const target = byPointer(ref);
      // An unresolvable reference is Ajv's compile error to report, not a cost to count.
      if (target) node.edges.push({ to: target, child: false });
    }
    for (const ref of node.dynamicRefs) {
      const initial = byPointer(resolveUri(ref, node.base));
      if (initial) node.edges.push({ to: initial, child: false });
      // A dynamic reference may land on any schema declaring the anchor: count every one.
      const hash = ref.indexOf('#');
      const name = hash < 0 ? '' : ref.slice(hash + 1);
      for (const target of graph.dynamicAnchors.get(name === '' ? '#recursive' : name) ?? []) {
        if (target !== initial) node.edges.push({ to: target, child: false });
      }
    }
  }
}

/** The node for a JSON Pointer inside a resource, found by walking its parsed text. */
function nodeAt(graph: Graph, resource: Node, pointer: string): Node | undefined {
  let value: unknown = resource.schema;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(value) && !Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return isObject(value) ? graph.byObject.get(value) : undefined;
}

/**
 * Subschemas the root expands to with references inlined: a memoised post-order walk without
 * recursion. A back edge (a cycle) counts once when the cycle descends into the value somewhere,
 * and is refused when every edge of it applies in place.
 */
function expandedSize(root: Node, field: string): number {
  const size = new Map<Node, number>();
  const onPath = new Map<Node, number>();
  // Prefix count of child edges along the current path, to tell the two kinds of cycle apart.
  const childDepth: number[] = [];
  const stack: Array<{ node: Node; next: number; total: number; child: boolean }> = [];
  const enter = (node: Node, child: boolean) => {
    childDepth.push((childDepth.at(-1) ?? 0) + (child ? 1 : 0));
    onPath.set(node, stack.length);
    stack.push({ node, next: 0, total: 1, child });
  };
  enter(root, false);
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    const edge = frame.node.edges[frame.next];
    if (edge) {
      frame.next += 1;
      const known = size.get(edge.to);
      if (known !== undefined) {
        frame.total = add(frame.total, known);
        continue;
      }
      const at = onPath.get(edge.to);
      if (at !== undefined) {
        const childEdges = childDepth.at(-1)! - childDepth[at]! + (edge.child ? 1 : 0);
        if (childEdges === 0) {
          throw invalidArgument(
            field,
            'has a $ref cycle that applies in place (recursion without descending into the value)',
          );
        }
        frame.total = add(frame.total, 1);
        continue;
      }
      enter(edge.to, edge.child);
      continue;
    }
    stack.pop();
    childDepth.pop();
    onPath.delete(frame.node);
    size.set(frame.node, frame.total);
    const parent = stack.at(-1);
    if (parent) parent.total = add(parent.total, frame.total);
  }
  return size.get(root) ?? 1;
}

// Saturates just above the limit: the exact size of a bomb is astronomically large.
function add(a: number, b: number): number {
  return Math.min(a + b, MAX_POLICY_SCHEMA_EXPANDED + 1);
}

function dynamicAnchorNames(object: Record<string, unknown>): string[] {
  const names: string[] = [];
  if (typeof object['$dynamicAnchor'] === 'string') names.push(object['$dynamicAnchor']);
  if (object['$recursiveAnchor'] === true) names.push('#recursive');
  return names;
}

function eachValue(map: unknown, visit: (sub: unknown) => void): void {
  if (isObject(map)) for (const sub of Object.values(map)) visit(sub);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolveUri(reference: string, base: string): string {
  try {
    return new URL(reference, base).href;
  } catch {
    return reference;
  }
}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash < 0 ? uri : uri.slice(0, hash);
}
