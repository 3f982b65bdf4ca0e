/**
 * The part of the `pkcs11js` binding the provider uses, typed here so the
 * service compiles without it (an optional dependency: a native addon built
 * by its install script, absent on a machine without a compiler).
 */
export type Handle = Buffer;
export interface Attribute {
  type: number;
  value?: number | boolean | string | Buffer;
}
export type Template = Attribute[];

export interface Pkcs11Api {
  load(path: string): void;
  C_Initialize(options?: { flags?: number }): void;
  C_Finalize(): void;
  C_GetSlotList(tokenPresent?: boolean): Handle[];
  C_GetTokenInfo(slot: Handle): { label: string };
  C_OpenSession(slot: Handle, flags: number): Handle;
  C_CloseSession(session: Handle): void;
  C_CloseAllSessions(slot: Handle): void;
  C_Login(session: Handle, userType: number, pin?: string): void;
  C_FindObjectsInit(session: Handle, template: Template): void;
  C_FindObjects(session: Handle, maxObjectCount: number): Handle[];
  C_FindObjectsFinal(session: Handle): void;
  C_GetAttributeValue(session: Handle, object: Handle, template: Template): Template;
  C_SignInit(session: Handle, mechanism: { mechanism: number }, key: Handle): void;
  C_SignAsync(session: Handle, inData: Buffer, outData: Buffer): Promise<Buffer>;
  C_GenerateKeyPairAsync(
    session: Handle,
    mechanism: { mechanism: number },
    publicTmpl: Template,
    privateTmpl: Template,
  ): Promise<{ privateKey: Handle; publicKey: Handle }>;
  C_DestroyObject(session: Handle, object: Handle): void;
  C_CreateObject(session: Handle, template: Template): Handle;
}

/** The module object of `pkcs11js`: the class and the PKCS#11 constants (CKA_*, CKR_*, ...). */
export type Pkcs11Module = { PKCS11: new () => Pkcs11Api } & Record<string, number>;

/** A Cryptoki error as pkcs11js throws it: the CKR_ code and the function that answered it. */
export const ckrOf = (e: unknown): number | undefined =>
  typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'number' && (e as { code: number }).code !== 0
    ? (e as { code: number }).code
    : undefined;

/** Loads `pkcs11js` on first use; undefined when it is not installed or was not built. */
export function loadPkcs11js(): Pkcs11Module | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('pkcs11js') as Pkcs11Module;
  } catch {
    return undefined;
  }
}
