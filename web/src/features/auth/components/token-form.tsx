import { useState, type SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { TOKEN_CREATE_COMMAND } from '../../../lib/error-sentences';
import { describeError, explainError, technicalText } from '../../../lib/errors';
import type { SchemeOffer } from '../api/auth-schemes';
import { needsTenant, normalizeToken } from '../api/verify-credential';
import { useVerifyCredentialMutation } from '../api/use-verify-credential-mutation';

type BearerOffer = Extract<SchemeOffer, { kind: 'bearer' }>;

/**
 * The API-token form, its field labelled by the scheme's name (the server calls it "API token")
 * shown as the card's heading, so the words appear once. The token is checked here first (not empty, one word) and then by the
 * server (WhoAmI) before the console keeps it; a refusal says what happened and what to do, the server's code and message under Details.
 */
export function TokenForm({ offer, title }: { offer: BearerOffer; title: string }) {
  const [token, setToken] = useState('');
  const [tenant, setTenant] = useState('');
  const [askTenant, setAskTenant] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The server's code and raw message for a refusal, behind a disclosure under the sentence.
  const [technical, setTechnical] = useState<string | null>(null);
  const verify = useVerifyCredentialMutation();

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setTechnical(null);
    const value = normalizeToken(token, offer.placement.prefix);
    if (!value) return setProblem('Enter an API token.');
    if (/\s/.test(value)) return setProblem('A token is one word: no spaces or line breaks.');
    if (askTenant && !tenant.trim()) return setProblem('Enter the tenant to work in.');
    setProblem(null);
    verify.mutate(
      {
        schemeId: offer.scheme.schemeId,
        token: value,
        placement: offer.placement,
        tenant: askTenant ? tenant.trim() : undefined,
      },
      {
        onError: (error) => {
          if (needsTenant(error)) setAskTenant(true);
          setProblem(describeError(error));
          setTechnical(technicalText(explainError(error)));
        },
      },
    );
  };

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <Field
        label={title}
        labelHeading="scheme__title"
        hint="Kept in this browser tab only, and sent to the server with each call."
        error={problem}
      >
        {(control) => (
          <input
            {...control}
            className="input"
            type="password"
            name="token"
            autoComplete="off"
            spellCheck={false}
            aria-required="true"
            value={token}
            onChange={(event) => setToken(event.target.value)}
          />
        )}
      </Field>
      {problem && technical && (
        <details className="error-text__details">
          <summary>Details</summary>
          <code className="mono">{technical}</code>
        </details>
      )}
      {askTenant && (
        <Field label="Tenant" hint="This token is granted several tenants; choose one to start in.">
          {(control) => (
            <input
              {...control}
              className="input"
              name="tenant"
              autoComplete="off"
              value={tenant}
              onChange={(event) => setTenant(event.target.value)}
            />
          )}
        </Field>
      )}
      <Button type="submit" variant="primary" busy={verify.isPending}>
        Sign in with API token
      </Button>
      <TokenSourceHint />
    </form>
  );
}

/** Where a token comes from, for someone at the sign-in page without one. */
function TokenSourceHint() {
  return (
    <div className="muted" data-testid="token-source-hint">
      <p>
        No token yet? The first <code className="mono">npm start</code> on an empty data directory
        prints an admin token for tenant <code className="mono">default</code> once. Make more with
        the token command, run beside the server (same STORE_DATA_DIR or DATABASE_URL):
      </p>
      <code className="mono token-source-hint__command">{TOKEN_CREATE_COMMAND}</code>
    </div>
  );
}
