import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import {
  describeArtifactLocation,
  type ArtifactLocation,
} from '../../../../config/artifact-location.js';
import { ConfigError } from '../../../../config/settings.js';
import type { S3Settings } from './s3-client.js';
import {
  clientSecrets,
  isCredentialRefusal,
  isUnreachable,
  redactSecrets,
  s3ErrorFacts,
} from './s3-errors.js';

type S3Location = Extract<ArtifactLocation, { kind: 's3' }>;

const CREDENTIAL_SOURCES =
  'credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), AWS_PROFILE with the shared credentials files, or an instance or container role';

/**
 * Start-up check of an s3:// artifact location: lists at most one key below the prefix, which
 * needs a reachable server, credentials it accepts, the bucket and the right to read it. A
 * failure throws ConfigError naming the setting at fault and the cause, never a secret.
 */
export async function checkObjectStoreAccess(
  client: S3Client,
  location: S3Location,
  settings: S3Settings,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await client.send(
      new ListObjectsV2Command({
        Bucket: location.bucket,
        Prefix: location.prefix === '' ? undefined : `${location.prefix}/`,
        MaxKeys: 1,
      }),
      signal ? { abortSignal: signal } : {},
    );
  } catch (error) {
    const secrets = await clientSecrets(client);
    throw new ConfigError(redactSecrets(explain(error, location, settings), secrets));
  }
}

function explain(error: unknown, location: S3Location, settings: S3Settings): string {
  const facts = s3ErrorFacts(error);
  const url = `STORE_ARTIFACT_URL=${describeArtifactLocation(location)}`;
  const server =
    settings.endpoint !== undefined
      ? `the S3 server at STORE_S3_ENDPOINT=${settings.endpoint}`
      : `AWS S3 in STORE_S3_REGION=${settings.region}`;
  const cause = `${facts.name}${facts.status === undefined ? '' : ` (HTTP ${facts.status})`}${
    facts.message === '' ? '' : `: ${facts.message}`
  }`;
  if (facts.name === 'NoSuchBucket' || facts.name === 'NotFound') {
    return `${url}: bucket "${location.bucket}" does not exist on ${server} (${cause})`;
  }
  if (facts.name === 'CredentialsProviderError') {
    return `${url}: no AWS credentials were found (${cause}); ${CREDENTIAL_SOURCES}`;
  }
  if (
    facts.name === 'PermanentRedirect' ||
    facts.name === 'AuthorizationHeaderMalformed' ||
    facts.status === 301
  ) {
    return `STORE_S3_REGION=${settings.region}: bucket "${location.bucket}" is in another region (${cause})`;
  }
  if (isCredentialRefusal(facts)) {
    return `${url}: ${server} refused the credentials or access to bucket "${location.bucket}" (${cause}); ${CREDENTIAL_SOURCES}`;
  }
  if (isUnreachable(facts) || /ECONN|ENOTFOUND|EAI_AGAIN|socket|timed? ?out/i.test(cause)) {
    const [setting, what] =
      settings.endpoint !== undefined
        ? [`STORE_S3_ENDPOINT=${settings.endpoint}`, 'the S3 server']
        : [`STORE_S3_REGION=${settings.region}`, 'AWS S3'];
    return `${setting}: cannot reach ${what} for ${url} (${cause})`;
  }
  return `${url}: ${server} refused to list bucket "${location.bucket}" (${cause})`;
}
