// Builds a descriptor registry from Envoy's own v3 API protos, so the checker knows exactly the
// messages, fields, enums and validation rules the Envoy release they were cut from knows.
// The protos come from @grpc/grpc-js-xds (deps/), the only copy installed; they are compiled with
// the pinned buf CLI and the image is cached under the OS temp dir, keyed by a content hash.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFileRegistry, fromBinary } from '@bufbuild/protobuf';
import type { FileRegistry } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Bump when the patch or the file selection changes, so stale images are never reused. */
const RECIPE_VERSION = 'v1';

/**
 * The validate.proto shipped next to Envoy's API is older than the API: Envoy uses
 * `StringRules.ignore_empty` (field 26 upstream). Adding that one field to a copy makes it compile;
 * node_modules is never edited.
 */
function patchValidateProto(source: string): string {
  const anchor = /(optional bool strict = 25 \[default = true\];)/;
  if (!anchor.test(source)) throw new Error('validate.proto: StringRules.strict not found');
  return source.replace(anchor, '$1\n  optional bool ignore_empty = 26;');
}

function depsRoot(): string {
  const require = createRequire(join(repoRoot, 'package.json'));
  return join(dirname(require.resolve('@grpc/grpc-js-xds/package.json')), 'deps');
}

function protoFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...protoFiles(full));
    else if (entry.name.endsWith('.proto')) out.push(full);
  }
  return out;
}

/**
 * Every Envoy proto whose imports are all present. A handful of extensions import OpenTelemetry,
 * OpenCensus or Prometheus protos that the package does not ship; those types stay unknown (a
 * config using them is reported as an unknown @type rather than silently accepted).
 */
function selectFiles(deps: string): Map<string, string> {
  const roots = ['envoy-api', 'xds', 'googleapis', 'protoc-gen-validate'].map((d) => join(deps, d));
  const byImport = new Map<string, string>();
  for (const root of roots) {
    for (const file of protoFiles(root)) {
      const rel = relative(root, file);
      // protoc-gen-validate also ships test and Java fixtures; only validate/ is the real API.
      if (root.endsWith('protoc-gen-validate') && !rel.startsWith('validate/')) continue;
      byImport.set(rel, file);
    }
  }
  const importsOf = new Map<string, string[]>();
  for (const [rel, file] of byImport) {
    const text = readFileSync(file, 'utf8');
    importsOf.set(
      rel,
      [...text.matchAll(/^import\s+(?:public\s+)?"([^"]+)";/gm)].map((m) => m[1]!),
    );
  }
  const complete = new Map<string, boolean>();
  const isComplete = (rel: string, seen: Set<string>): boolean => {
    const known = complete.get(rel);
    if (known !== undefined) return known;
    if (rel.startsWith('google/protobuf/')) return true; // buf supplies the well-known types
    if (!byImport.has(rel)) return false;
    if (seen.has(rel)) return true;
    seen.add(rel);
    const ok = (importsOf.get(rel) ?? []).every((dep) => isComplete(dep, seen));
    complete.set(rel, ok);
    return ok;
  };
  const selected = new Map<string, string>();
  const include = (rel: string) => {
    if (selected.has(rel) || rel.startsWith('google/protobuf/')) return;
    selected.set(rel, byImport.get(rel)!);
    for (const dep of importsOf.get(rel) ?? []) include(dep);
  };
  for (const rel of byImport.keys()) {
    if (rel.startsWith('envoy/') && isComplete(rel, new Set())) include(rel);
  }
  return selected;
}

function cacheBase(): string {
  return process.env.ENVOY_CHECK_CACHE ?? join(tmpdir(), 'store-envoy-check');
}

function buildImage(files: Map<string, string>, key: string): string {
  const dir = join(cacheBase(), key);
  const image = join(dir, 'envoy-api.binpb');
  if (existsSync(image)) return image;
  // A private work dir per build; the finished image is renamed into place, so two test workers
  // building at once never read a half-written file.
  const work = join(dir, `work-${process.pid}-${Date.now()}`);
  const src = join(work, 'proto');
  for (const [rel, file] of files) {
    mkdirSync(dirname(join(src, rel)), { recursive: true });
    if (rel === 'validate/validate.proto') {
      writeFileSync(join(src, rel), patchValidateProto(readFileSync(file, 'utf8')));
    } else cpSync(file, join(src, rel));
  }
  writeFileSync(join(src, 'buf.yaml'), 'version: v2\n');
  const buf = join(repoRoot, 'node_modules', '.bin', 'buf');
  const out = join(work, 'envoy-api.binpb');
  execFileSync(buf, ['build', src, '--exclude-source-info', '-o', out], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  renameSync(out, image);
  rmSync(work, { recursive: true, force: true });
  return image;
}

let cached: FileRegistry | undefined;

/** The registry of Envoy's v3 API (plus xds, udpa, validate and the well-known types). */
export function envoyRegistry(): FileRegistry {
  if (cached) return cached;
  const files = selectFiles(depsRoot());
  const bufPackage = join(repoRoot, 'node_modules', '@bufbuild', 'buf', 'package.json');
  const hash = createHash('sha256').update(RECIPE_VERSION).update(readFileSync(bufPackage));
  for (const rel of [...files.keys()].sort()) {
    hash
      .update(rel)
      .update('\0')
      .update(readFileSync(files.get(rel)!))
      .update('\0');
  }
  const image = buildImage(files, hash.digest('hex').slice(0, 16));
  const set = fromBinary(FileDescriptorSetSchema, readFileSync(image));
  cached = createFileRegistry(set);
  return cached;
}
