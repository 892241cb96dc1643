import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useWhoAmIQuery } from '../../lib/identity/use-who-am-i-query';
import { useActiveTenant, useServices } from '../../lib/services';

/**
 * The tenant calls act in (store-active-tenant). Switching resets the query cache, so no page
 * shows another tenant's data while the new answers arrive; the choice is kept in sessionStorage.
 */
export function TenantSwitcher() {
  const id = useId();
  const { session, toasts } = useServices();
  const queryClient = useQueryClient();
  const tenant = useActiveTenant();
  const who = useWhoAmIQuery();
  const tenants = who.data?.tenants.map((grant) => grant.tenantId) ?? [];

  if (tenants.length <= 1) {
    return (
      <span className="tenant">
        <span className="tenant__label">Tenant</span> <strong>{tenant}</strong>
      </span>
    );
  }
  return (
    <span className="tenant">
      <label className="tenant__label" htmlFor={id}>
        Tenant
      </label>
      <select
        id={id}
        className="input input--compact"
        value={tenant}
        onChange={(event) => {
          session.setTenant(event.target.value);
          void queryClient.resetQueries();
          toasts.push({ tone: 'info', title: `Switched to tenant ${event.target.value}` });
        }}
      >
        {tenants.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </span>
  );
}
