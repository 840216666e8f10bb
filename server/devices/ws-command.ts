import Value from 'typebox/value';
import { roleRefusal, WRITER_ROLES } from '../auth/guard.ts';
import type { UserRow } from '../auth/users-repo.ts';
import { notFound } from '../domain/errors.ts';
import { forbidden, invalidInput } from '../http/errors.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import type { ControlService } from './control-service.ts';
import { DeviceControlCommand } from './schemas.ts';

/**
 * The websocket `device-control` command: the same checks and the same path as
 * POST /api/devices/:deviceId/control. Errors go back to the sender as an `error` event (the hub maps
 * them like the HTTP error handler); the result reaches every socket as deviceUpdate / device-control-update.
 */
export function registerDeviceControlCommand(hub: RealtimeHub, control: ControlService, resolveGreenhouse: (id: string) => string | null): void {
  hub.onClientEvent('device-control', async (account: UserRow, data: unknown) => {
    const refusal = roleRefusal(account.role, WRITER_ROLES);
    if (refusal) throw forbidden(refusal);
    // Worded like the REST routes' 400s: "Invalid device-control: zz is not an accepted field".
    if (!Value.Check(DeviceControlCommand, data)) throw invalidInput('device-control', Value.Errors(DeviceControlCommand, data), 'data');
    if (!resolveGreenhouse(data.greenhouseId)) throw notFound(`Greenhouse '${data.greenhouseId}' not found`);
    await control.control({ deviceId: data.deviceId, action: data.action, source: 'user', actor: account.username });
  });
}
