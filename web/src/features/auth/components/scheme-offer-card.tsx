import { GuardedButton } from '../../../components/ui/guarded-button';
import type { SchemeOffer } from '../api/auth-schemes';
import { OidcSignIn } from './oidc-sign-in';
import { TokenForm } from './token-form';

/** One advertised scheme: its form, its button, or why this console cannot use it. */
export function SchemeOfferCard({ offer }: { offer: SchemeOffer }) {
  const title = offer.scheme.displayName || offer.scheme.schemeId;
  return (
    <section className="scheme">
      {/* A token form's one field is labelled by the scheme's name, shown once as its heading. */}
      {offer.kind !== 'bearer' && <h2 className="scheme__title">{title}</h2>}
      {offer.kind === 'bearer' && <TokenForm offer={offer} title={title} />}
      {offer.kind === 'oidc' && <OidcSignIn offer={offer} />}
      {offer.kind === 'unavailable' && (
        <GuardedButton allowed={false} reason={offer.reason}>
          Sign in with {title}
        </GuardedButton>
      )}
    </section>
  );
}
