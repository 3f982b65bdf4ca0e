import { z } from './zod';
import { createPolicySchema, policyRulesSchema, setWalletPolicySchema, updatePolicySchema } from '../../domain/schemas/policy';

/**
 * The bodies of the policy routes for the document, built from the fields of
 * the schemas that validate them (src/domain/schemas/policy.ts), with what
 * their refinements enforce written as JSON Schema: distinct list values, at
 * least one rule, a name of 1-64 characters once trimmed, and the USD
 * amounts' format (a decimal string or a number, > 0, at most 2 decimals, at
 * most 12 whole digits). One rule has no exact JSON Schema form: the
 * decimals of a JSON-number amount (multipleOf is not exact on binary
 * floats); the document says it in words. test/unit/rest/openapiDocument.test.ts
 * checks on generated bodies that the document and zod agree.
 */

const rules = policyRulesSchema.shape;

/** The USD pattern of the schema (≤ 12 whole digits, ≤ 2 decimals); `not` refuses zero in any spelling. */
const USD_PATTERN = '^\\d{1,12}(\\.\\d{1,2})?$';

/** A USD amount: a decimal string, or a number (read in its shortest decimal form), > 0, at most 2 decimals. */
function usd(field: typeof rules.maxUsdPerIntent) {
  return z
    .union([
      z
        .string()
        .regex(new RegExp(USD_PATTERN))
        .meta({ not: { pattern: '^[0.]*$' }, examples: ['100', '12.50'] }),
      // a number's shortest decimal form must fit the pattern too: from 0.01 (the least with ≤ 2 decimals) to below 10^12
      z
        .number()
        .min(0.01)
        .lt(1e12)
        .meta({ examples: [12.5] }),
    ])
    .optional()
    .meta({
      ...(field.meta() ?? {}),
      description: `${field.meta()?.description ?? ''}. A decimal string or a JSON number, greater than 0, with at most 12 whole digits and at most 2 decimals (a number's decimals are checked on its shortest decimal form, which this schema cannot say); kept and answered as a decimal string.`,
    });
}

/** The list rules: the schema refuses a repeated value. */
const distinct = <T extends z.ZodType>(field: T): T => field.meta({ ...(field.meta() ?? {}), uniqueItems: true }) as T;

export const policyRulesBodySchema = z
  .strictObject({
    actions: distinct(rules.actions),
    chains: distinct(rules.chains),
    protocols: distinct(rules.protocols),
    maxUsdPerIntent: usd(rules.maxUsdPerIntent),
    maxUsdPerDay: usd(rules.maxUsdPerDay),
  })
  .meta({ ...(policyRulesSchema.meta() ?? {}), minProperties: 1 })
  .openapi('PolicyRulesInput', {
    description: `${policyRulesSchema.meta()?.description ?? ''}. Unknown rules, unknown chains or protocols, empty or repeating lists, and amounts out of format are 400 INVALID_REQUEST naming each field.`,
  });

/**
 * The name: trimmed, then 1-64 characters. As a pattern (surrounding
 * whitespace, then 1-64 characters starting and ending with a non-space),
 * since a padded name longer than 64 characters is accepted.
 */
const nameField = createPolicySchema.shape.name;
const name = z
  .string()
  .regex(/^\s*\S(?:[\s\S]{0,62}\S)?\s*$/)
  .meta(nameField.meta() ?? {});

export const createPolicyBodySchema = z
  .strictObject({ name, scope: createPolicySchema.shape.scope, rules: policyRulesBodySchema })
  .openapi('CreatePolicyRequest', {
    description: 'A new policy, version 1. Unknown fields are refused. One `scope: "account"` policy per account (a second is 409 POLICY_CONFLICT).',
  });

if (Object.keys(updatePolicySchema.shape).join() !== 'name,rules') throw new Error('openapi: UpdatePolicyRequest below is written for name and rules');
export const updatePolicyBodySchema = z.strictObject({ name, rules: policyRulesBodySchema }).openapi('UpdatePolicyRequest', {
  description: 'Replaces the name and every rule (a rule left out no longer applies); the scope stays. Unknown fields, `scope` among them, are refused.',
});

// (rebuilt with the document's z: a domain schema may be created before zod is extended with .openapi)
export const setWalletPolicyBodySchema = z.strictObject(setWalletPolicySchema.shape).openapi('SetWalletPolicyRequest', {
  description:
    'The wallet-scope policy to govern the wallet (an account-scope one is 400 INVALID_REQUEST: it already governs every wallet without its own). Unknown fields are refused.',
});
