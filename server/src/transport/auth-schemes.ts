/** A public description of one way to sign in (spec 000/001, AuthSchemeDescriptor). */
export interface AuthSchemeView {
  schemeId: string;
  displayName: string;
  /** Public configuration only: never a secret, never user data. */
  parameters: Record<string, string>;
}

/** The auth-scheme source: what GetAuthScheme advertises (empty unless configured). */
export type AuthSchemeSource = () => readonly AuthSchemeView[];

/** The library default: advertise nothing (spec: AdvertisedAuthSchemes defaults to empty). */
export const noAdvertisedSchemes: AuthSchemeSource = () => [];
