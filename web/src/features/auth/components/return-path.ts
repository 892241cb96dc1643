import type { Location } from 'react-router';

/** The route guard sends users here with `state.from`; where to go once signed in. */
export interface SignInLocationState {
  from?: { pathname: string; search?: string; hash?: string };
}

export function returnPathOf(location: Location): string {
  const from = (location.state as SignInLocationState | null)?.from;
  if (!from) return '/';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
