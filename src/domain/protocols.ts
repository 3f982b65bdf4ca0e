/**
 * The lending protocols the service supplies to: the one list of their names
 * (as the API and the yields report spell them), each with what the API says
 * of it. Everything protocol-specific lives in the protocol's module
 * (src/chain/protocols/<name>.ts).
 */
export const LENDING_PROTOCOL_INFO = {
  'aave-v3': 'Aave V3 pools.',
  'compound-v3': 'Compound V3 (Comet) markets.',
} as const satisfies Record<string, string>;

export type LendingProtocol = keyof typeof LENDING_PROTOCOL_INFO;
export const LENDING_PROTOCOLS = Object.keys(LENDING_PROTOCOL_INFO) as [LendingProtocol, ...LendingProtocol[]];
