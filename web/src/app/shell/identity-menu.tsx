import { Button } from '../../components/ui/button';
import { useSignOut } from '../../features/auth/hooks/use-sign-out';
import { describeError } from '../../lib/errors';
import { useWhoAmIQuery } from '../../lib/identity/use-who-am-i-query';
import { useRoles } from '../../lib/identity/use-roles';

const SCHEME_NAMES: Record<string, string> = {
  bearer: 'API token',
  oidc: 'single sign-on',
  anonymous: 'no credential',
};

/** Who is signed in (WhoAmI), how, with which roles here, and sign-out. */
export function IdentityMenu() {
  const who = useWhoAmIQuery();
  const { roles } = useRoles();
  const signOut = useSignOut();
  return (
    <div className="identity">
      {who.data && (
        <span className="identity__who">
          <span className="identity__name">{who.data.displayName || who.data.subject}</span>
          <span className="identity__meta">
            {/* The subject is what grants and audit logs name: shown even when a name is known. */}
            {who.data.displayName && who.data.displayName !== who.data.subject && (
              <span className="mono">{who.data.subject} </span>
            )}
            via {SCHEME_NAMES[who.data.schemeId] ?? who.data.schemeId}
            {roles.length > 0 && ` · ${roles.join(', ')}`}
          </span>
        </span>
      )}
      {who.isError && (
        <span className="identity__meta" title={describeError(who.error)}>
          Identity unavailable
        </span>
      )}
      <Button variant="ghost" onClick={signOut}>
        Sign out
      </Button>
    </div>
  );
}
