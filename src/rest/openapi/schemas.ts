import { z } from './zod';
import type { Agree } from './viewAgreement';
import { ASSETS, ASSET_DECIMALS, CHAIN_NAMES, LENDING_PROTOCOLS, TOKEN_ASSETS } from '../../domain/chains';
import { BRIDGE_SPEEDS, INTENT_ACTIONS, INTENT_STATUSES, STEP_STATUSES, STRATEGIES } from '../../domain/intent';
import type { ErrorCode } from '../../domain/errors/base';
import { ERROR_STATUS } from '../../http/errorStatus';
import { chainTypeSchema, userIdSchema } from '../../domain/schemas/wallet';
import { DEMO_FUND, type FundingReceipt } from '../../app/funding/fundDemoWallet';
import { MAX_PAGE } from '../../app/intents/listIntents';
import type { PaidWalletView, WalletView } from '../../app/wallets/walletView';
import type { BalanceReport } from '../../app/balances/getBalances';
import type { YieldReport } from '../../app/yields/getYields';
import type { IntentView } from '../../app/intents/intentView';
import type { IntentPreview } from '../../app/intents/previewIntent';
import type { AuditEventView } from '../../app/audit/listAuditEvents';
import { AUDIT_ACTOR_TYPES, AUDIT_EVENT_TYPES } from '../../domain/audit';
import { createPolicySchema, policyRulesSchema } from '../../domain/schemas/policy';
import type { PolicyView } from '../../app/policies/policyView';
import type { listPolicies } from '../../app/policies/managePolicies';
import type { UsageView } from '../../app/accounts/getUsage';
import { PLAN_NAMES } from '../../domain/plans';

/**
 * The bodies the REST routes answer with, as zod schemas: the response
 * components of the OpenAPI document. The use-cases build these answers as
 * TypeScript view types; the checks at the end of this file fail the build
 * when a view and its schema drift apart (a field added, removed or retyped
 * on either side), and the Prism conformance test checks real answers.
 * Objects are closed (`additionalProperties: false`): an answer carrying a
 * field the document does not name is a violation.
 */

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

const chainName = z.enum(CHAIN_NAMES);
const tokenAsset = z.enum(TOKEN_ASSETS as [(typeof TOKEN_ASSETS)[number], ...(typeof TOKEN_ASSETS)[number][]]);
const protocol = z.enum(LENDING_PROTOCOLS).meta({ description: 'Lending protocol' });
/** A non-negative integer written as a string (smallest units, gas): exact beyond 2^53. */
const integerString = (description: string) =>
  z
    .string()
    .regex(/^\d+$/)
    .meta({ description, examples: ['1500000'] });
/** A non-negative decimal written as a string (token units). */
const decimalString = (description: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .meta({ description, examples: ['1.5'] });
const timestamp = (description: string) => z.iso.datetime().meta({ description, examples: ['2026-01-31T12:00:00.000Z'] });
const txHash = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/)
  .meta({ description: 'Transaction hash', examples: [`0x${'ab'.repeat(32)}`] });

export const walletSchema = z
  .strictObject({
    id: z.string().meta({ description: 'The wallet id (svc_wallet_ and 32 hex characters)', examples: ['svc_wallet_0123456789abcdef0123456789abcdef'] }),
    userId: userIdSchema,
    address: z
      .string()
      .meta({ description: 'The public address (0x… for ethereum, base58 T… for tron)', examples: ['0x52908400098527886E0F7030069857D2E4169EE7'] }),
    chainType: chainTypeSchema,
    chains: z.array(chainName).meta({ description: 'The chains the wallet acts on (the plan decides: test networks on free; none yet for tron)' }),
    email: z.string().optional().meta({ description: 'Present when set, and only for the owning account (never on a paid read)' }),
    metadata: z.record(z.string(), z.unknown()).meta({ description: 'As given at creation (`{}` when none)' }),
    policyId: z.string().nullable().meta({
      description: "The wallet's own spending policy (svc_policy_…); null when none, its account's account-scope policy then governs it. Null on a paid read",
    }),
    createdAt: timestamp('When the wallet was created'),
  })
  .openapi('Wallet', { description: 'A wallet: one application user, one key held by the service' });

/** GET /wallets/{userId} paid for over x402: no email, no metadata (left out, not emptied), no policy shown. */
export const paidWalletSchema = walletSchema
  .omit({ email: true, metadata: true })
  .openapi('PaidWallet', { description: 'A wallet as a paid (x402) read sees it: neither email nor metadata' });

/** What GET /wallets/{userId} answers: the wallet to its account, the paid view to a paid read (one component, as every 2xx body is). */
export const walletReadSchema = z
  .union([walletSchema, paidWalletSchema])
  .openapi('WalletRead', { description: 'Wallet to its account; PaidWallet to a paid (x402) read' });

const tokenContract = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const tokenBalance = {
  asset: z.enum(ASSETS),
  token: z
    .union([tokenContract, z.null()])
    .meta({ description: "The token's contract on the chain (a position: the token supplied); null for the chain's native ETH. USDC is always Circle's USDC" }),
  balance: integerString('Smallest units'),
  balanceFormatted: decimalString('Token units'),
  decimals: z
    .number()
    .int()
    .meta({ description: `The asset's decimals (${ASSETS.map((a) => `${a} ${ASSET_DECIMALS[a]}`).join(', ')})` }),
  valueUsd: z.number().meta({ description: 'USD value at the chain price feed' }),
};

/** What a position earned since the service supplied it (docs/api-guide.md, "Earnings"). */
const positionEarnings = {
  principal: z.union([decimalString('Token units'), z.null()]).meta({
    description:
      'What the wallet supplied to this position through the service, net of what it took back (interest taken first), in token units (exact); a rebalance carries the principal it moved (less its bridge fees), its interest stays earned; null when the service never supplied to it (funds supplied outside the service are not guessed)',
  }),
  earned: z.union([decimalString('Token units'), z.null()]).meta({
    description:
      "Interest the service's supplies to the position accrued (the protocol's index growth), interest a rebalance carried here included, in token units (exact); null with principal",
  }),
  external: decimalString('Token units').optional().meta({
    description:
      "What others supplied to the position on the wallet's behalf (Aave supply onBehalfOf, Comet supplyTo): not interest. Absent when the position's ledger has no index (earned is then balance − principal, never below 0)",
  }),
};

export const balanceReportSchema = z
  .strictObject({
    walletId: z.string(),
    address: z.string(),
    chains: z
      .array(
        z.strictObject({
          chain: chainName,
          tokens: z.array(z.strictObject(tokenBalance)).meta({ description: 'Tokens held (empty when none)' }),
          positions: z
            .array(z.strictObject({ protocol, ...tokenBalance, ...positionEarnings }))
            .meta({ description: 'Lending positions (supplied, with interest)' }),
        }),
      )
      .meta({ description: 'Every chain of the wallet, in the wallet order' }),
    totalValueUsd: z.number().meta({ description: 'Tokens plus positions on every chain, exactly the sum of the entries' }),
  })
  .openapi('BalanceReport', { description: 'Balances and lending positions of a wallet on each of its chains' });

const yieldRate = {
  chain: chainName,
  protocol,
  asset: tokenAsset,
  token: tokenContract.meta({
    description: "The token the market lends, by its contract: a market is (chain, protocol, token), and USDC is always Circle's USDC",
  }),
  apy: z.number().meta({ description: 'Supply APY in percent, 2 decimals' }),
  sandboxOnly: z.boolean().meta({
    description: 'A market the sandbox adds where the real test network has none (SANDBOX_MARKETS=testnets leaves it out); always false on real networks',
  }),
};

export const yieldReportSchema = z
  .strictObject({
    rates: z.array(z.strictObject(yieldRate)).meta({ description: 'Every (chain, protocol, asset) market, filtered by the query' }),
    best: z.union([z.strictObject({ ...yieldRate, reasoning: z.string().meta({ description: 'Why, naming every market compared' }) }), z.null()]).meta({
      description:
        'The best market for `asset` (USDC when absent): the highest APY, or with optimize=netReturn the best net return; null when none matches the filters (or the funds reach none)',
    }),
    netReturn: z
      .strictObject({
        horizonDays: z.number().int().meta({ description: 'Days the earnings are counted over' }),
        amount: z.string().meta({ description: 'The amount ranked for, token units', examples: ['100'] }),
        walletId: z.string().meta({ description: 'The wallet whose funds are lent' }),
        ranking: z
          .array(
            z.strictObject({
              ...yieldRate,
              bridges: z.number().int().meta({ description: 'Bridges needed to gather the amount there' }),
              amount: z.string().meta({ description: 'What would be deposited after route fees, token units' }),
              earningsUsd: z.number().meta({ description: 'amount × APY × horizonDays / 365, in USD' }),
              routeFeesUsd: z.number().meta({ description: 'Route fees of the bridges, in USD' }),
              gasUsd: z.number().meta({ description: "Typical gas of every step at each chain's gas price and ETH/USD now, in USD" }),
              netReturnUsd: z.number().meta({ description: 'earningsUsd − routeFeesUsd − gasUsd' }),
            }),
          )
          .meta({ description: "Every market the wallet's funds reach, best net return first" }),
      })
      .optional()
      .meta({ description: 'With optimize=netReturn only: the ranking `best` was chosen by' }),
  })
  .openapi('YieldReport', { description: 'Lending rates and the best market' });

const units = z.string().regex(/^\d+$/).meta({ description: 'Integer string, smallest units' });
const decimalAmount = z.string().meta({ description: 'Token units, decimal string' });
const previewChoice = z
  .enum(['bestApy', 'netReturn'])
  .meta({ description: 'bestApy: the highest APY (the default); netReturn: the best net return over horizonDays (optimize: netReturn)' });

export const intentPreviewSchema = z
  .strictObject({
    walletId: z.string(),
    action: z.enum(INTENT_ACTIONS),
    asset: tokenAsset,
    requestedAmount: decimalAmount,
    requestedAmountUnits: units,
    amount: decimalAmount.meta({ description: 'What the plan finally deposits, withdraws or delivers (after route fees), token units' }),
    amountUnits: units,
    strategy: z.enum(STRATEGIES),
    reasoning: z.string().meta({ description: 'The plan explained, as the intent would record it' }),
    choice: previewChoice.optional().meta({ description: 'lend without chain: which rule chose the market' }),
    horizonDays: z.number().int().optional().meta({ description: 'lend without chain: the days the net return is counted over' }),
    speed: z.enum(BRIDGE_SPEEDS).optional().meta({ description: "bridge and lend: the speed the plan's bridges go at" }),
    speeds: z
      .array(
        z.strictObject({
          speed: z.enum(BRIDGE_SPEEDS),
          routeFees: decimalAmount.meta({ description: "CCTP fees of the plan's bridges at this speed's tier" }),
          routeFeesUnits: units,
          expectedWaitSeconds: z
            .number()
            .int()
            .meta({ description: 'Typical wait for the attestation at this speed on the public networks, seconds (the sandbox attests in milliseconds)' }),
        }),
      )
      .optional()
      .meta({ description: 'When the plan bridges: its bridges priced at each speed (the plan itself is priced at `speed`)' }),
    apy: z.union([z.number(), z.null()]).meta({ description: 'APY of the market lent to (or withdrawn from), percent; null for a bridge' }),
    steps: z
      .array(
        z.strictObject({
          index: z.number().int(),
          type: z.enum(['deposit', 'withdraw', 'bridge']),
          chain: chainName.meta({ description: "The step's chain (a bridge's source)" }),
          from: chainName.optional(),
          to: chainName.optional(),
          protocol: z.string().optional(),
          amount: decimalAmount,
          amountUnits: units,
          routeFee: decimalAmount.meta({ description: 'Route fee of a bridge (0 otherwise)' }),
          routeFeeBps: z.number().optional().meta({ description: "Bridge: the CCTP fee tier charged at the intent's speed, basis points (fractions allowed)" }),
          expectedWaitSeconds: z
            .number()
            .int()
            .optional()
            .meta({ description: "Bridge: typical wait for the attestation at the intent's speed on the public networks, seconds" }),
          routeFeeUnits: units,
          arrives: decimalAmount.meta({ description: 'amount − routeFee' }),
          arrivesUnits: units,
          apy: z.number().optional().meta({ description: 'Deposit: the market APY, percent' }),
          expectedYearlyEarnings: decimalAmount.optional().meta({ description: 'Deposit: what it earns in a year at the APY, token units' }),
          gas: z.strictObject({
            units: units.meta({
              description:
                "Gas of the step, every transaction; on a chain of user operations (account model 7702) the step closing the chain's operation also carries what the operation adds",
            }),
            usd: z.number().meta({ description: "At each chain's gas price and ETH/USD feed now" }),
            transactions: z.array(
              z.strictObject({
                kind: z.enum(['approve', 'revoke', 'supply', 'withdraw', 'burn', 'mint', 'transfer']),
                chain: chainName,
                gas: units,
                gasUsd: z.number(),
                estimate: z.enum(['estimated', 'simulated', 'typical']).meta({
                  description:
                    'estimated: eth_estimateGas now; simulated: eth_call under a state override giving the wallet the funds and allowance earlier transactions bring; typical: the measured figure of the kind (a mint needs its attestation)',
                }),
              }),
            ),
          }),
        }),
      )
      .meta({ description: 'The steps the engine would run, in order, priced' }),
    totals: z.strictObject({
      routeFees: decimalAmount,
      routeFeesUnits: units,
      gasUnits: units.meta({ description: "As results.totalGasUsed counts it (the gas tank's native top-up of the wallet is counted in neither)" }),
      gasUsd: z.number(),
      expectedYearlyEarnings: decimalAmount.optional().meta({ description: 'lend: what the deposit earns in a year at the APY' }),
    }),
    alternatives: z
      .array(
        z.strictObject({
          choice: previewChoice,
          chain: chainName,
          protocol: z.string(),
          apy: z.number(),
          bridges: z.number().int(),
          amount: decimalAmount.meta({ description: 'What would be deposited' }),
          earningsUsd: z.number(),
          routeFeesUsd: z.number(),
          gasUsd: z.number().meta({ description: 'Typical gas, as the ranking counts it' }),
          netReturnUsd: z.number(),
        }),
      )
      .optional()
      .meta({ description: 'lend without chain, when the highest APY and the best net return choose different markets: both' }),
  })
  .openapi('IntentPreview', { description: 'The plan the engine would run now for this body, priced; nothing stored or sent' });

export const fundingReceiptSchema = z
  .strictObject({
    walletId: z.string(),
    chain: z.literal(DEMO_FUND.chain),
    asset: z.literal(DEMO_FUND.asset),
    amount: z.literal(DEMO_FUND.amount),
    txHash,
    status: z.literal('submitted').meta({ description: 'Broadcast: the funds land once it is mined' }),
    warnings: z.array(z.string()).optional().meta({ description: 'Fields of the request that were ignored (chain, amount)' }),
  })
  .openapi('FundingReceipt', { description: 'A demo funding transaction, broadcast' });

const sandboxOnlyStep = z.literal(true).optional().meta({ description: 'Present (true) when the market exists only in the sandbox' });
const stepProgress = {
  index: z.number().int().min(0).meta({ description: 'Position in executionPlan.steps, from 0' }),
  status: z.enum(STEP_STATUSES),
  chain: chainName.meta({ description: "The chain the step's transaction is sent on (a bridge's source chain)" }),
  txHash: z.string().optional(),
  startedAt: timestamp('When the step started').optional(),
  completedAt: timestamp('When the step ended').optional(),
  gasUsed: integerString('Gas used').optional(),
  gasCostUsd: z.number().optional(),
  fee: decimalString('Route fee taken out of a bridged amount').optional(),
  attempts: z.number().int().optional().meta({ description: 'Tries so far while a transaction of the step meets trouble' }),
  lastError: z.strictObject({ code: z.string(), message: z.string() }).optional().meta({ description: 'The last trouble while the step keeps trying' }),
  nextAttemptAt: timestamp('When the step tries again').optional(),
  amount: decimalString('Token units the step moves (exact)'),
  amountUnits: integerString('`amount` in smallest units'),
};

const stepSchema = z
  .discriminatedUnion('type', [
    z
      .strictObject({ type: z.literal('deposit'), protocol, asset: tokenAsset, sandboxOnly: sandboxOnlyStep, ...stepProgress })
      .openapi('DepositStep', { description: 'Supply `amount` of `asset` to `protocol` on `chain`' }),
    z
      .strictObject({ type: z.literal('withdraw'), protocol, asset: tokenAsset, sandboxOnly: sandboxOnlyStep, ...stepProgress })
      .openapi('WithdrawStep', { description: 'Withdraw `amount` of `asset` from `protocol` on `chain`' }),
    z
      .strictObject({
        type: z.literal('bridge'),
        from: chainName,
        to: chainName,
        ...stepProgress,
        maxFee: decimalString("The most the CCTP mint may keep back: the fee planned at the intent's speed (the burn's maxFee)").optional(),
        minFinalityThreshold: z
          .union([z.literal(1000), z.literal(2000)])
          .optional()
          .meta({ description: "The burn's CCTP v2 minFinalityThreshold: 1000 fast, 2000 standard" }),
        feeSource: z.enum(['lastKnown', 'standardFree']).optional().meta({
          description:
            'Present when the attestation service did not answer at planning: `lastKnown`, the fee is from its last answer; `standardFree`, no answer yet and a standard transfer, free under CCTP v2',
        }),
      })
      .openapi('BridgeStep', {
        description: '`amount` leaves `from`; `amount - fee` arrives on `to` (`fee`: planned until the mint, then what the mint kept back)',
      }),
  ])
  .openapi('IntentStep', { description: 'One step of an execution plan' });

const transactionSchema = z
  .strictObject({
    type: z.enum(['deposit', 'withdraw', 'bridge']),
    kind: z.string().optional().meta({ description: 'approve, supply, withdraw, burn, mint, or revoke (an allowance taken back after a failure)' }),
    txHash,
    chain: chainName.optional(),
    status: z.string().optional().meta({ description: 'signed (sent, no receipt yet), confirmed or reverted' }),
    replacedTxHashes: z.array(z.string()).optional().meta({ description: 'Fee-bumped replacements signed at the same nonce (none of them mined)' }),
    gasUsed: integerString('Gas used').optional(),
    gasCostUsd: z.number().optional(),
  })
  .openapi('Transaction', { description: 'A transaction the intent sent' });

export const intentErrorSchema = z
  .strictObject({ code: z.enum(ERROR_CODES), message: z.string(), details: z.record(z.string(), z.unknown()) })
  .openapi('IntentError', {
    description:
      'Why a failed intent failed (INSUFFICIENT_FUNDS, BRIDGE_FAILED, DEPOSIT_FAILED, WITHDRAW_FAILED, POLICY_VIOLATION when no plan fits its policy or a step it does not allow was refused at signing, …); on a cancelled rebalance that left funds idle, INTENT_CANCELLED with details.idle (per chain)',
  });

export const intentSchema = z
  .strictObject({
    id: z.string().meta({ examples: ['intent_0123456789abcdef0123456789abcdef'] }),
    walletId: z.string(),
    status: z
      .enum(INTENT_STATUSES)
      .meta({ description: 'pending → planning → executing → completed | failed; cancelled when a cancel stopped it (POST /intents/{intentId}/cancel)' }),
    action: z.enum(INTENT_ACTIONS),
    amount: z.number().meta({ description: 'Token units the plan moves once planned (after route fees); the requested amount before' }),
    amountUnits: integerString('`amount` exactly, in smallest units'),
    requestedAmount: z.number().meta({ description: 'What the client asked for' }),
    requestedAmountUnits: integerString('`requestedAmount` exactly, in smallest units'),
    asset: tokenAsset,
    chain: chainName.optional(),
    fromChain: chainName.optional(),
    toChain: chainName.optional().meta({ description: 'Bridge: the destination chain; rebalance: the chain of the target market' }),
    toProtocol: protocol.optional().meta({ description: 'Rebalance: the lending protocol of the target market' }),
    sources: z
      .array(
        z
          .strictObject({
            chain: chainName,
            protocol: z.union([protocol, z.null()]).meta({ description: 'The lending protocol of the position withdrawn; null for idle funds' }),
            amount: decimalString('What this source gives, token units'),
          })
          .openapi('RebalanceSource', { description: "One source of a rebalance: a position withdrawn, or the wallet's idle funds on a chain" }),
      )
      .optional()
      .meta({ description: 'Rebalance: where the moved funds come from (`requestedAmount` is their sum)' }),
    speed: z
      .enum(BRIDGE_SPEEDS)
      .optional()
      .meta({ description: 'Bridge, lend and rebalance: how fast bridges are attested (fast: seconds, for a fee; standard: hard finality, free)' }),
    executionPlan: z
      .union([
        z.strictObject({
          strategy: z.enum(STRATEGIES),
          steps: z.array(stepSchema),
          reasoning: z.string().meta({ description: 'Why this plan, in words' }),
        }),
        z.null(),
      ])
      .meta({ description: 'Null while pending or planning (and when planning failed)' }),
    results: z
      .strictObject({
        completedSteps: z.number().int().min(0),
        transactions: z.array(transactionSchema),
        totalGasUsed: integerString('Gas used by every transaction'),
        totalGasCostUsd: z.number(),
        finalAmount: decimalString('Token units in place at the end'),
        apy: z.number().meta({ description: 'APY obtained, percent' }),
        failedStep: z.number().int().min(0).optional().meta({ description: 'Index of the failed step' }),
        bridgeFees: decimalString("What the CCTP fees of the intent's bridges took, as their mints kept it back").optional(),
      })
      .optional()
      .meta({ description: 'Present once execution has started' }),
    error: intentErrorSchema.optional(),
    createdAt: timestamp('When the intent was created'),
    updatedAt: timestamp('Last change'),
    completedAt: timestamp('When it completed, failed or was cancelled').optional(),
    cancelRequestedAt: timestamp('When a cancel was asked for; absent when none was').optional(),
    policy: z
      .strictObject({ id: z.string().meta({ examples: ['svc_policy_0123456789abcdef0123456789abcdef'] }), version: z.number().int() })
      .optional()
      .meta({ description: 'The spending policy (and its version) the intent was decided under; absent when none governed the wallet' }),
  })
  .openapi('Intent', { description: 'A lend, withdraw or bridge intent and its progress' });

/** Where a cursor-paginated list stands. */
const pageInfo = z.strictObject({
  hasNextPage: z.boolean(),
  endCursor: z.union([z.string(), z.null()]).meta({ description: 'Pass as `after` for the next page; null on an empty page' }),
});

export const intentPageSchema = z
  .strictObject({
    intents: z.array(intentSchema).meta({ description: `Newest first, at most \`first\` (≤ ${MAX_PAGE})` }),
    pageInfo,
  })
  .openapi('IntentPage', { description: "A page of a wallet's intents" });

const rules = policyRulesSchema.shape;
/** A USD amount as the service keeps it: the decimal string given, or a number's shortest decimal form. */
const usdString = (field: typeof rules.maxUsdPerIntent) =>
  z
    .string()
    .regex(/^\d{1,12}(\.\d{1,2})?$/)
    .optional()
    .meta({
      ...(field.meta() ?? {}),
      description: `${field.meta()?.description ?? ''}. A decimal string: as given, or the shortest decimal form of the number given`,
    });

export const policyRulesViewSchema = z
  .strictObject({
    actions: rules.actions,
    chains: rules.chains,
    protocols: rules.protocols,
    maxUsdPerIntent: usdString(rules.maxUsdPerIntent),
    maxUsdPerDay: usdString(rules.maxUsdPerDay),
  })
  .openapi('PolicyRules', { description: 'What the policy allows (only the rules it sets: an absent rule allows everything it would govern)' });

export const policySchema = z
  .strictObject({
    id: z.string().meta({ description: 'The policy id (svc_policy_ and 32 hex characters)', examples: ['svc_policy_0123456789abcdef0123456789abcdef'] }),
    name: z.string().meta({ description: 'As given, trimmed' }),
    scope: createPolicySchema.shape.scope
      .unwrap()
      .meta({ description: 'wallet: governs the wallets it is set on; account: governs every wallet of the account without a policy of its own' }),
    rules: policyRulesViewSchema,
    version: z.number().int().min(1).meta({ description: '1 at creation, + 1 on every update; an intent records the version it was decided under' }),
    createdAt: timestamp('When the policy was created'),
    updatedAt: timestamp('Last update'),
  })
  .openapi('Policy', { description: 'A spending policy: what the wallets it governs may do, decided before anything is signed' });

export const policyPageSchema = z
  .strictObject({
    policies: z.array(policySchema).meta({ description: 'Newest first, at most `first` (≤ 100)' }),
    pageInfo,
  })
  .openapi('PolicyPage', { description: "A page of the account's policies" });

export const auditEventSchema = z
  .strictObject({
    id: z.string().meta({ examples: ['svc_audit_0123456789abcdef0123456789abcdef'] }),
    at: timestamp('When it happened'),
    type: z.enum(AUDIT_EVENT_TYPES),
    actor: z
      .strictObject({
        type: z.enum(AUDIT_ACTOR_TYPES),
        id: z.union([z.string(), z.null()]).meta({ description: 'The key id (apiKey) or user id (session); null for admin and system' }),
      })
      .meta({ description: 'Who acted' }),
    subject: z
      .strictObject({
        walletId: z.string().optional(),
        intentId: z.string().optional(),
        policyId: z.string().optional(),
        keyId: z.string().optional(),
        webhookId: z.string().optional(),
        standingIntentId: z.string().optional(),
      })
      .meta({ description: 'What the event is about: only the ids that apply' }),
    details: z.record(z.string(), z.unknown()).meta({ description: 'What was decided, by type (never a secret)' }),
  })
  .openapi('AuditEvent', { description: 'One entry of the audit log' });

export const auditPageSchema = z
  .strictObject({
    events: z.array(auditEventSchema).meta({ description: 'Newest first' }),
    nextCursor: z.union([z.string(), z.null()]).meta({ description: 'Pass as `cursor` for the next page; null on the last page' }),
  })
  .openapi('AuditEventPage', { description: "A page of the account's audit log" });

/** A limit of the plan: a count, or null for unlimited. */
const planLimit = (description: string) => z.union([z.number().int().min(0), z.null()]).meta({ description: `${description}; null: unlimited` });

export const usageSchema = z
  .strictObject({
    plan: z.enum(PLAN_NAMES).meta({ description: "The account's plan" }),
    credits: z
      .strictObject({
        used: z.number().int().min(0).meta({ description: 'Credits spent this calendar month (UTC), charged on 2xx answers only' }),
        limit: planLimit('Credits the plan allows a month'),
        resetsAt: timestamp('When the month ends and `used` starts again from 0'),
      })
      .meta({ description: "This month's credits: X-Credits-Remaining is `limit - used`" }),
    rateWindow: z
      .strictObject({
        limit: z.number().int().min(1).meta({ description: "Requests per minute, all the account's keys together" }),
        used: z.number().int().min(0).meta({ description: 'Requests counted in the current window (this one included; at most `limit`)' }),
        remaining: z.number().int().min(0).meta({ description: 'Requests left in the current window (this one counted)' }),
        resetsAt: timestamp('When the current one-minute window ends'),
      })
      .meta({ description: 'The current one-minute window, as the X-RateLimit-* headers show it' }),
    wallets: z
      .strictObject({
        count: z.number().int().min(0).meta({ description: 'Wallets the account has' }),
        limit: planLimit('Wallets the plan allows'),
      })
      .meta({ description: 'Wallets against the plan limit' }),
  })
  .openapi('Usage', { description: "Your account's plan, credits this month, current rate window and wallets" });

// ---- compile-time agreement of the schemas with the view types the use-cases return ----

const agreements: [
  Agree<z.output<typeof walletSchema>, WalletView>,
  Agree<z.output<typeof paidWalletSchema>, PaidWalletView>,
  Agree<z.output<typeof balanceReportSchema>, BalanceReport>,
  Agree<z.output<typeof yieldReportSchema>, YieldReport>,
  Agree<z.output<typeof fundingReceiptSchema>, FundingReceipt>,
  Agree<z.output<typeof intentSchema>, IntentView>,
  Agree<z.output<typeof auditEventSchema>, AuditEventView>,
  Agree<z.output<typeof policySchema>, PolicyView>,
  Agree<z.output<typeof policyPageSchema>, { policies: PolicyView[]; pageInfo: Awaited<ReturnType<typeof listPolicies>>['pageInfo'] }>,
  Agree<z.output<typeof usageSchema>, UsageView>,
  Agree<z.output<typeof intentPreviewSchema>, IntentPreview>,
] = [true, true, true, true, true, true, true, true, true, true, true];
void agreements;
