import { StoreBackupApiOperation } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { needsRole, ROLE_ORDER, type Role } from '../identity/role-reason';
import type { Roles } from '../identity/use-roles';
import { capabilitiesOf, roleShortfall } from './capabilities';
import { BACKUP_LEAST_ROLE } from './least-role';

function rolesOf(held: Role[], isLoading = false): Roles {
  const rank = Math.max(-1, ...held.map((r) => ROLE_ORDER.indexOf(r)));
  return {
    roles: held,
    atLeast: (role) => rank >= ROLE_ORDER.indexOf(role),
    needs: (role) => needsRole(role, held, 'acme'),
    isLoading,
  };
}

const probed = (held: Role[], isLoading = false) =>
  capabilitiesOf<StoreBackupApiOperation>([StoreBackupApiOperation.LIST_BACKUPS], {
    isLoading: false,
    error: null,
    tenant: 'acme',
    needs: (op) => roleShortfall(rolesOf(held, isLoading), BACKUP_LEAST_ROLE.get(op)),
  });

describe('a disabled control says the role it needs, as the rest of the console does', () => {
  it('names the least role of the operation and the one the caller has', () => {
    const viewer = probed(['viewer']);
    expect(viewer.guard(StoreBackupApiOperation.START_BACKUP)).toEqual({
      allowed: false,
      reason: 'Needs the operator role (you are a viewer in tenant acme).',
    });
    expect(viewer.guard(StoreBackupApiOperation.DELETE_BACKUP).reason).toBe(
      'Needs the admin role (you are a viewer in tenant acme).',
    );
    expect(probed(['operator']).guard(StoreBackupApiOperation.START_RESTORE).reason).toBe(
      'Needs the admin role (you are an operator in tenant acme).',
    );
    expect(viewer.guard(StoreBackupApiOperation.LIST_BACKUPS)).toEqual({
      allowed: true,
      reason: '',
    });
  });

  it('keeps the general sentence when the role suffices (another authorizer refused) or is loading', () => {
    expect(probed(['admin']).guard(StoreBackupApiOperation.DELETE_BACKUP).reason).toBe(
      'Your role in tenant acme does not allow this',
    );
    expect(probed([], true).guard(StoreBackupApiOperation.DELETE_BACKUP).reason).toBe(
      'Your role in tenant acme does not allow this',
    );
  });
});
