/**
 * Device names and ids as a grower reads them (docs/decisions.md, "Bad input"): "Fan one", " fan  ONE "
 * and "Fan one" are one name, and "FAN-1" is the id "fan-1". Names are unique per greenhouse and ids
 * regardless of case, so a control log's "Heater is already OFF" names one machine. Used by the gateway
 * (adding and renaming, the wiring config) and by the dashboard's Add Device form.
 *
 * Dependency-free on purpose: server/ and web/ both import it as a value.
 */

/** The form of a name two devices may not share: Unicode-compatibility folded, trimmed, inner spaces as one, lower case. */
export const deviceNameKey = (name: string): string => name.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();

/** The form of an id two devices may not share (ids are ASCII letters, digits, `_` and `-`). */
export const deviceIdKey = (deviceId: string): string => deviceId.toLowerCase();
