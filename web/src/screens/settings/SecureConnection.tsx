// Secure connection (docs/https.md): the gateway's https addresses, its CA to download and how to
// trust it on Android, iPhone and a computer. Service workers, installation and push work only there.
import type { HttpsInfo } from '../../../../server/contract/https.ts';
import { useHttpsInfo } from '../../api/push.ts';
import { formatTimestamp } from '../../format.ts';

export function SecureConnection() {
  const { data: info, isError } = useHttpsInfo();
  const secure = window.location.protocol === 'https:';
  return (
    <fieldset className="settings-group" data-testid="secure-connection">
      <legend>Secure connection (HTTPS)</legend>
      <p className={secure ? 'settings-note' : 'settings-warning'} data-testid="connection-state">
        {secure
          ? 'This page is on a secure connection: the dashboard can be installed and can receive alerts here.'
          : 'This page is on plain HTTP: a phone can neither install the dashboard nor receive alerts from it here.'}
      </p>
      {isError && <p className="settings-error">Could not load the HTTPS settings.</p>}
      {info && !info.enabled && (
        <p className="settings-note" data-testid="https-off">
          HTTPS is off on this gateway. An administrator turns it on with <code>HTTPS_PORT=8443</code> (or <code>https.port</code> in the
          config file) and restarts it; the gateway then makes its own certificate.
        </p>
      )}
      {info?.enabled && <HttpsDetails info={info} secure={secure} />}
    </fieldset>
  );
}

function HttpsDetails({ info, secure }: { info: HttpsInfo; secure: boolean }) {
  return (
    <>
      <div className="field">
        <span>{secure ? 'Secure addresses' : 'Open the dashboard at one of these addresses'}</span>
        <ul className="https-urls" data-testid="https-urls">
          {info.urls.map((url) => (
            <li key={url}>
              <a href={url}>{url}</a>
            </li>
          ))}
        </ul>
        {info.certificateExpiresAt && <span className="field-hint">The gateway renews its certificate by itself before {formatTimestamp(info.certificateExpiresAt)}.</span>}
      </div>
      {info.ca ? (
        <>
          <div className="settings-actions">
            <a className="btn btn-secondary" href={info.ca.downloadPath} download="greenhouse-gateway-ca.crt" data-testid="download-ca">
              Download the gateway's certificate
            </a>
          </div>
          <p className="settings-note">
            Install it once on each phone or computer, so the browser trusts this gateway. Before you trust it, check that the
            fingerprint your device shows is this one (SHA-256):
          </p>
          <code className="https-fingerprint" data-testid="ca-fingerprint">{info.ca.fingerprintSha256}</code>
          <details className="https-steps">
            <summary>Android</summary>
            <ol>
              <li>Download the certificate above on the phone.</li>
              <li>Settings › Security and privacy › More security settings › Install from device storage › CA certificate (search Settings for "CA certificate" if your phone names it differently), and pick the file.</li>
              <li>Open one of the https addresses in Chrome, then menu › Install app (or Add to Home screen).</li>
            </ol>
          </details>
          <details className="https-steps">
            <summary>iPhone and iPad</summary>
            <ol>
              <li>Open this page in Safari and download the certificate; allow the configuration profile.</li>
              <li>Settings › General › VPN &amp; Device Management › the gateway's profile › Install.</li>
              <li>Settings › General › About › Certificate Trust Settings: turn on full trust for the gateway's CA.</li>
              <li>Open an https address in Safari, then Share › Add to Home Screen. Alerts need iOS 16.4 or later, from the Home Screen app.</li>
            </ol>
          </details>
          <details className="https-steps">
            <summary>Computer</summary>
            <ol>
              <li>Windows (Chrome, Edge): open the file › Install Certificate › Local Machine › Trusted Root Certification Authorities.</li>
              <li>macOS (Safari, Chrome): open it in Keychain Access, then Trust › When using this certificate: Always Trust.</li>
              <li>Linux (Chrome): Settings › Privacy and security › Security › Manage certificates › Authorities › Import.</li>
              <li>Firefox (any system): Settings › Privacy &amp; Security › Certificates › View Certificates › Authorities › Import, and tick "trust this CA to identify websites".</li>
            </ol>
          </details>
        </>
      ) : (
        <p className="settings-note">This gateway serves a certificate its administrator provided: nothing to install if your devices already trust its issuer.</p>
      )}
    </>
  );
}
