// Checks an Envoy bootstrap YAML the way `envoy --mode validate` would, without Envoy:
// decode against the v3 API, reject deprecated fields, run the API's PGV rules, then the
// start-up cross-checks; finally this deployment's policy. Later stages need a clean decode.
import { parse } from 'yaml';
import { envoyRegistry } from './descriptors.js';
import { decode } from './decode.js';
import { obj } from './json.js';
import { checkPolicy } from './policy.js';
import type { Problem } from './problem.js';
import { checkSemantics } from './semantics.js';
import { walkConfig } from './walk.js';

export type { Problem } from './problem.js';
export { formatProblem } from './problem.js';

export const BOOTSTRAP = 'envoy.config.bootstrap.v3.Bootstrap';

/** Checks parsed YAML data (a plain JSON-like value). */
export function checkEnvoyConfig(data: unknown): Problem[] {
  const registry = envoyRegistry();
  const desc = registry.getMessage(BOOTSTRAP);
  if (!desc) throw new Error(`${BOOTSTRAP} missing from the descriptor set`);
  const decoded = decode(desc, data, registry);
  if (!decoded.message || decoded.canonical === undefined) return decoded.problems;
  const problems = walkConfig(desc, decoded.message, registry);
  // Cross-checks assume each message is well-formed; report those problems first, alone.
  if (problems.some((p) => p.kind === 'rule')) return problems;
  const bootstrap = obj(decoded.canonical);
  return [...problems, ...checkSemantics(bootstrap), ...checkPolicy(bootstrap)];
}

/** Checks YAML text; YAML syntax errors are decode problems too. */
export function checkEnvoyYaml(text: string): Problem[] {
  let data: unknown;
  try {
    // Envoy reads YAML 1.2-ish (yaml-cpp): no `yes`/`no` booleans, duplicate keys are an error.
    data = parse(text, { uniqueKeys: true, version: '1.2' });
  } catch (error) {
    return [{ kind: 'decode', path: '', message: `YAML: ${(error as Error).message}` }];
  }
  return checkEnvoyConfig(data);
}
