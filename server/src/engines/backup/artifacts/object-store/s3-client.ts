import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { ServerConfig } from '../../../../config/settings.js';

/** How to reach the S3 API (STORE_S3_*). Credentials are not here: see createS3Client. */
export interface S3Settings {
  /** An S3-compatible server (MinIO, Ceph, rclone); undefined: AWS, found from the region. */
  endpoint: string | undefined;
  region: string;
  /** `host/bucket/key` requests instead of `bucket.host/key` (MinIO-style servers). */
  forcePathStyle: boolean;
}

export function s3SettingsFrom(
  config: Pick<ServerConfig, 's3Endpoint' | 's3Region' | 's3ForcePathStyle'>,
): S3Settings {
  return {
    endpoint: config.s3Endpoint,
    region: config.s3Region,
    forcePathStyle: config.s3ForcePathStyle,
  };
}

export interface S3ClientOverrides {
  /**
   * Fixed credentials instead of the SDK's provider chain; for tests that run several servers
   * with different keys in one process. The product passes none.
   */
  credentials?: S3ClientConfig['credentials'];
  /** Attempts per request, retries included (SDK default 3). */
  maxAttempts?: number;
}

/**
 * An S3 client for the settings. Credentials come from the SDK's standard provider chain
 * (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, AWS_PROFILE and the shared
 * files, web identity, container and instance roles) unless overridden; the SDK never logs them
 * (no logger is given).
 */
export function createS3Client(settings: S3Settings, overrides: S3ClientOverrides = {}): S3Client {
  quietNode20SupportWarning();
  return new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint !== undefined ? { endpoint: settings.endpoint } : {}),
    ...(overrides.credentials !== undefined ? { credentials: overrides.credentials } : {}),
    maxAttempts: overrides.maxAttempts ?? 3,
    // Checksums only where asked for: uploads ask for SHA-256 themselves (s3-streaming-put.ts).
    // The default CRC32 on every request costs CPU for nothing the sha256 does not prove, and
    // validating response checksums breaks ranged reads on servers that send the whole object's
    // checksum with a range (rclone serve s3 does).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // An unreachable endpoint fails in seconds instead of hanging a start-up or a capture; an
    // idle socket (a server that stopped answering mid-transfer) fails after a minute.
    requestHandler: { connectionTimeout: 10_000, socketTimeout: 60_000 },
  });
}

/**
 * The SDK warns on every start under Node 20 that its versions published after January 2027
 * will need Node 22. The product supports Node >= 20.19 (package.json engines) with the SDK it
 * pins, so the warning tells an operator nothing they can act on; whoever upgrades the SDK meets
 * its engines field instead. The switch is the one the SDK's maintainers give for this
 * (aws/aws-sdk-js-v3#7983); an operator's own value of it is kept, and other Node majors are
 * left alone so a later warning about them still shows.
 */
function quietNode20SupportWarning(): void {
  if (process.versions.node.split('.')[0] !== '20') return;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}
