import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The layer boundaries of docs/decisions.md are enforced by eslint.config.js; these cases prove the rules bite
 * (a rule that matches nothing would pass `npm run lint` for ever).
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it('drivers/ may not import from server/ or web/', async () => {
    expect(await restrictedImports('drivers/rpi/example.ts', "import { loadConfig } from '../../server/config/load.ts';\nexport const x = loadConfig;\n")).toHaveLength(1);
    expect(await restrictedImports('drivers/rpi/example.ts', "import { delay } from '../../common/delay.ts';\nexport const x = delay;\n")).toEqual([]);
  });

  it('web/ imports only types from server/contract', async () => {
    const typeOnly = "import type { Device } from '../../server/contract/device.ts';\nexport type X = Device;\n";
    const value = "import { Device } from '../../server/contract/device.ts';\nexport const x = Device;\n";
    const other = "import type { Gateway } from '../../server/gateway.ts';\nexport type X = Gateway;\n";
    expect(await restrictedImports('web/src/example.ts', typeOnly)).toEqual([]);
    expect(await restrictedImports('web/src/example.ts', value)).toHaveLength(1);
    expect(await restrictedImports('web/src/example.ts', other)).toHaveLength(1);
  });

  it('the domain never imports HTTP; routes may', async () => {
    const http = "import { conflict } from '../http/errors.ts';\nexport const x = conflict;\n";
    expect(await restrictedImports('server/devices/control-service.ts', http)).toHaveLength(1);
    expect(await restrictedImports('server/devices/routes.ts', http)).toEqual([]);
  });
});
