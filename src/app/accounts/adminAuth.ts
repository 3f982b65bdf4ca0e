import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from './apiKeyFormat';
import { unauthorized } from '../../domain/errors/auth';

/** Checks `Authorization: Bearer <ADMIN_TOKEN>` in constant time (digests of equal length). */
export function checkAdminToken(expected: string, authorization: string | undefined): void {
  const token = bearerToken(authorization) ?? '';
  const a = createHash('sha256').update(token).digest();
  const b = createHash('sha256').update(expected).digest();
  if (!token || !timingSafeEqual(a, b)) throw unauthorized('Admin token missing or invalid');
}
