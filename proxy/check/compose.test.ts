// docker-compose.yml is valid Compose (checked by the docker-compose binary itself, no engine
// needed) and agrees with proxy/envoy.yaml on service names, ports and the pinned Envoy image.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENVOY_VERSION } from '../../scripts/edge/envoy-binary.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const INSTALL = 'apt-get update && apt-get install -y docker-compose';

type Node = Record<string, unknown>;
const obj = (x: unknown): Node => (x ?? {}) as Node;
const list = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);

function compose(...args: string[]) {
  return spawnSync('docker-compose', ['-f', 'docker-compose.yml', ...args], {
    cwd: root,
    encoding: 'utf8',
    // Interpolation defaults must be enough: nothing from the caller's shell decides validity.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
}

describe('docker-compose.yml', () => {
  it('passes `docker-compose config -q`, with and without the sso profile', () => {
    const probe = spawnSync('docker-compose', ['version'], { encoding: 'utf8' });
    if (probe.error) {
      // Not skipped: a silent skip would hide an unchecked compose file.
      throw new Error(
        `docker-compose is not installed, so docker-compose.yml cannot be checked. Install it with: ${INSTALL}`,
      );
    }
    for (const args of [
      ['config', '-q'],
      ['--profile', 'sso', 'config', '-q'],
    ]) {
      const result = compose(...args);
      expect(result.stderr, `docker-compose ${args.join(' ')}`).not.toMatch(/ERROR/);
      expect(result.status, result.stderr).toBe(0);
    }
  });

  it('matches proxy/envoy.yaml: every upstream is a compose service on the right port', () => {
    const services = obj(
      obj(parse(readFileSync(`${root}docker-compose.yml`, 'utf8'), { merge: true }))['services'],
    );
    const envoy = obj(parse(readFileSync(`${root}proxy/envoy.yaml`, 'utf8')));
    const clusters = list(obj(envoy['static_resources'])['clusters']).map(obj);
    const portEnv: Record<string, string> = {
      store_grpc: 'STORE_GRPC_PORT',
      store_http: 'STORE_HTTP_PORT',
    };
    for (const cluster of clusters) {
      const name = String(cluster['name']);
      const sockets = list(obj(cluster['load_assignment'])['endpoints']).flatMap((loc) =>
        list(obj(loc)['lb_endpoints']).map((ep) =>
          obj(obj(obj(obj(ep)['endpoint'])['address'])['socket_address']),
        ),
      );
      expect(sockets.length, name).toBeGreaterThanOrEqual(2);
      for (const socket of sockets) {
        const service = obj(services[String(socket['address'])]);
        expect(Object.keys(service), `${name} → ${String(socket['address'])}`).not.toHaveLength(0);
        const env = obj(service['environment']);
        expect(String(env[portEnv[name]!]), `${name} port`).toBe(String(socket['port_value']));
      }
    }
  });

  it('pins the Envoy image to the release the edge tests run, and mounts proxy/envoy.yaml read-only', () => {
    const services = obj(
      obj(parse(readFileSync(`${root}docker-compose.yml`, 'utf8'), { merge: true }))['services'],
    );
    const envoy = obj(services['envoy']);
    expect(envoy['image']).toBe(`envoyproxy/envoy:v${ENVOY_VERSION}`);
    expect(list(envoy['volumes'])).toContain('./proxy/envoy.yaml:/etc/envoy/envoy.yaml:ro');
    expect(list(obj(services['oidc'])['profiles'])).toEqual(['sso']);
  });

  it('keeps artifacts in MinIO, not on a volume the replicas share', () => {
    // As docker-compose resolves it (placeholders filled in, the x-server anchor merged).
    const resolved = compose('config');
    expect(resolved.status, resolved.stderr).toBe(0);
    const services = obj(obj(parse(resolved.stdout))['services']);
    const minio = obj(services['minio']);
    expect(String(minio['image'])).toMatch(/^minio\/minio:RELEASE\.\d{4}-/);
    expect(minio['command']).toEqual(['server', '/data']);
    const minioEnv = obj(minio['environment']);
    const bucketStep = obj(services['minio-bucket']);
    expect(String(bucketStep['image'])).toMatch(/^minio\/mc:RELEASE\.\d{4}-/);

    for (const name of ['server-1', 'server-2']) {
      const replica = obj(services[name]);
      const env = obj(replica['environment']);
      expect(env['STORE_ARTIFACT_DIR'], name).toBeUndefined();
      // No volume at all: nothing a replica writes is shared with the other but through
      // PostgreSQL and the bucket.
      expect(list(replica['volumes']), name).toEqual([]);
      const url = /^s3:\/\/([^/]+)(\/.*)?$/.exec(String(env['STORE_ARTIFACT_URL']));
      expect(url, `${name} STORE_ARTIFACT_URL`).not.toBeNull();
      // The bucket the one-shot step makes, on the MinIO service, path-style.
      expect(JSON.stringify(bucketStep['entrypoint'])).toContain(`store/${url![1]}`);
      expect(env['STORE_S3_ENDPOINT']).toBe('http://minio:9000');
      expect(String(env['STORE_S3_FORCE_PATH_STYLE'])).toBe('true');
      // The credentials the replicas sign with are MinIO's.
      expect(env['AWS_ACCESS_KEY_ID']).toBe(minioEnv['MINIO_ROOT_USER']);
      expect(env['AWS_SECRET_ACCESS_KEY']).toBe(minioEnv['MINIO_ROOT_PASSWORD']);
      expect(obj(obj(replica['depends_on'])['minio-bucket'])['condition']).toBe(
        'service_completed_successfully',
      );
    }
    expect(Object.keys(obj(obj(parse(resolved.stdout))['volumes'])).sort()).toEqual([
      'objects',
      'pgdata',
    ]);
  });
});
