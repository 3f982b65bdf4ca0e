import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/**
 * Gives zod schemas `.openapi(refId, metadata)` (component names for the
 * document). Imported first by every document module; the domain schemas
 * carry plain zod `.meta()` instead, which the generator reads too.
 */
extendZodWithOpenApi(z);

export { z };
