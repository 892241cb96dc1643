import { Code, ConnectError } from '@connectrpc/connect';
import { explainError, type ErrorExplanation } from '../../../lib/errors';

/**
 * A refused change of a channel in words. Update and Delete send the etag read with the channel;
 * the server answers FailedPrecondition when someone changed the channel since (spec of
 * UpdateChannelRequest.etag), which the generic sentence would call a state problem. Email
 * without server SMTP settings is the other FailedPrecondition and keeps the server's words.
 */
export function explainChannelError(error: unknown, sentEtag: boolean): ErrorExplanation {
  const explanation = explainError(error);
  if (!sentEtag || !(error instanceof ConnectError)) return explanation;
  if (error.code !== Code.FailedPrecondition || /smtp/i.test(error.rawMessage)) return explanation;
  return {
    ...explanation,
    what: 'Someone changed this channel after you opened it, so nothing was changed.',
    next: 'The list now shows the channel as it is; look at it and make your change again.',
  };
}
