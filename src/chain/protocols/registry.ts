import { ServiceError } from '../../domain/errors/base';
import { aaveV3 } from './aave-v3';
import { compoundV3 } from './compound-v3';
import type { LendingProtocolModule } from './types';

/** The lending protocols a service runs with, by name; the service composition takes one (default: DEFAULT_PROTOCOLS). */
export interface ProtocolRegistry {
  readonly modules: readonly LendingProtocolModule[];
  /** The module of `name`; an unknown name is a programming error (a plan or a manifest naming a protocol the service has no module of). */
  get(name: string): LendingProtocolModule;
  has(name: string): boolean;
}

export function createProtocolRegistry(modules: readonly LendingProtocolModule[]): ProtocolRegistry {
  const byName = new Map(modules.map((m) => [m.name, m]));
  if (byName.size !== modules.length) throw new Error('createProtocolRegistry: two modules share a name');
  return {
    modules,
    has: (name) => byName.has(name),
    get(name) {
      const m = byName.get(name);
      if (!m) throw new ServiceError('INTERNAL_ERROR', `Unknown lending protocol ${name}`, { details: { protocol: name } });
      return m;
    },
  };
}

/** The protocols of the service: one line per protocol. */
export const DEFAULT_PROTOCOLS = createProtocolRegistry([
  aaveV3, //
  compoundV3,
]);
