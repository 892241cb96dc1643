import { useId, useState, type SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';

export interface TenantChoiceProps {
  tenants: readonly string[];
  onChoose: (tenant: string) => void;
}

/**
 * For a single sign-on user granted several tenants: the server picks none when the call names
 * none (DESIGN.md §4), so the console asks which tenant to start in (the switcher changes it later).
 */
export function TenantChoice({ tenants, onChoose }: TenantChoiceProps) {
  const id = useId();
  const [tenant, setTenant] = useState(tenants[0] ?? '');
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    if (tenant) onChoose(tenant);
  };
  return (
    <form className="stack" onSubmit={submit} aria-label="Choose a tenant">
      <p>You are granted several tenants. Which one do you want to start in?</p>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          Tenant
        </label>
        <select
          id={id}
          className="input"
          value={tenant}
          onChange={(event) => setTenant(event.target.value)}
        >
          {tenants.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="primary">
        Continue
      </Button>
    </form>
  );
}
