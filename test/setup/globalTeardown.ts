import { rmSync } from 'node:fs';
import type { SandboxGlobalState } from './sandbox';
import { stopSoftHsmLane } from './softhsmLane';

/** Jest globalTeardown: stop the sandbox globalSetup started and remove its manifest file. */
export default async function globalTeardown(): Promise<void> {
  stopSoftHsmLane();
  const mongoHolder = globalThis as { __MONGO__?: { stop(): Promise<void> } };
  if (mongoHolder.__MONGO__) {
    await mongoHolder.__MONGO__.stop();
    delete mongoHolder.__MONGO__;
    delete process.env.MONGODB_URI;
  }
  const holder = globalThis as { __SANDBOX__?: SandboxGlobalState };
  const state = holder.__SANDBOX__;
  if (!state) return;
  delete holder.__SANDBOX__;
  await state.stop();
  rmSync(state.dir, { recursive: true, force: true });
  delete process.env.SANDBOX_MANIFEST;
}
