// The entry point of the gateway process (`node dist/server/main.js`, `npm start`, the systemd unit).
// First, and alone: V8 settings that must be in place before the rest of the server is even parsed.
// Every module imported statically here would be loaded and compiled before this module's body runs,
// so the rest of the server is imported only once the settings are made.
import './appliance/v8-footprint.ts';

try {
  const { runGatewayProcess } = await import('./appliance/gateway-process.ts');
  await runGatewayProcess();
} catch (err) {
  console.error(err);
  process.exit(1);
}
