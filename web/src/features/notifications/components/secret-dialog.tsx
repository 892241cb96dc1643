import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { DialogActions } from '../../../components/ui/dialog-actions';

export interface ShownSecret {
  channelName: string;
  secret: string;
  /** Why it is shown: a new channel, or a rotation that replaced the old secret. */
  reason: 'created' | 'rotated';
}

/**
 * A webhook's signing secret, the one time the server hands it out (CreateChannel or
 * RotateChannelSecret): shown whole with a copy button and a plain warning that it will not be
 * shown again. Closing it drops the secret from the page.
 */
export function SecretDialog({ shown, onClose }: { shown: ShownSecret; onClose: () => void }) {
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = setTimeout(() => setCopied(null), 3000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown.secret);
      setCopied('copied');
    } catch {
      // No clipboard (an insecure origin, a denied permission): the secret stays selectable.
      setCopied('failed');
    }
  };

  return (
    <Dialog
      open
      title={
        shown.reason === 'created'
          ? `Signing secret of ${shown.channelName}`
          : `New signing secret of ${shown.channelName}`
      }
      onClose={onClose}
      footer={
        <DialogActions
          primary={
            <Button variant="primary" onClick={onClose}>
              I have stored it
            </Button>
          }
        />
      }
    >
      <div className="stack secret-reveal">
        <p className="notice notice--warning">
          <strong>Copy it now: you will not see it again.</strong> The console does not keep it, and
          the server shows only its first characters from now on.
        </p>
        <code className="mono secret-reveal__value" data-testid="signing-secret">
          {shown.secret}
        </code>
        <div className="secret-reveal__actions">
          <Button onClick={() => void copy()}>
            {copied === 'copied' ? 'Copied' : 'Copy secret'}
          </Button>
          <span role="status" className="muted">
            {copied === 'copied'
              ? 'The secret is on the clipboard.'
              : copied === 'failed'
                ? 'The browser refused the clipboard: select the secret and copy it.'
                : ''}
          </span>
        </div>
        <p className="muted">
          {shown.reason === 'rotated'
            ? 'Messages are signed with this secret from now on; the old one no longer verifies. '
            : ''}
          Your receiver verifies each message’s webhook-signature header with it (Standard
          Webhooks).
        </p>
      </div>
    </Dialog>
  );
}
