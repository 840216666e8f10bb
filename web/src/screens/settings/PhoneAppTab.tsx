// Phone app tab: the secure address and its certificate, then pushed alerts on this device.
import { PushAlerts } from './PushAlerts.tsx';
import { SecureConnection } from './SecureConnection.tsx';

export function PhoneAppTab() {
  return (
    <div className="form">
      <SecureConnection />
      <PushAlerts />
    </div>
  );
}
