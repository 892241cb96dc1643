import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from '../lib/paths';

/** A render error or an unknown route: say so, and offer a way back. */
export function RouteErrorPage() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="sign-in" id="main">
      <div className="sign-in__card">
        <h1 className="sign-in__title">{notFound ? 'Page not found' : 'Something went wrong'}</h1>
        <p>
          {notFound
            ? 'There is no page at this address.'
            : error instanceof Error
              ? error.message
              : 'The page failed to render.'}
        </p>
        <Link to={paths.dashboard}>Back to the dashboard</Link>
      </div>
    </main>
  );
}
