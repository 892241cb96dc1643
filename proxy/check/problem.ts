/**
 * One reason Envoy (or this project's deployment policy) would not accept the config.
 * - decode: the YAML does not map onto the v3 API (unknown field or @type, bad enum, bad type)
 * - deprecated: a deprecated field, message or enum value is used
 * - rule: a protoc-gen-validate rule from the API protos fails (what Envoy checks on load)
 * - semantic: a cross-reference Envoy checks at start-up fails (clusters, filters, names)
 * - policy: the config loads, but breaks a rule of this deployment (see docs/deployment.md)
 */
export interface Problem {
  kind: 'decode' | 'deprecated' | 'rule' | 'semantic' | 'policy';
  /** Proto field path from the bootstrap root; `<type>` marks the inside of an Any. */
  path: string;
  message: string;
}

export function formatProblem(p: Problem): string {
  return `${p.kind}: ${p.path || '(root)'}: ${p.message}`;
}
