/** Word lists the generator draws from. Plain data; changing them changes every seed's output. */

export const SERVICES = [
  'ledger',
  'checkout',
  'invoicing',
  'refunds',
  'notifications',
  'search',
  'auth',
  'payouts',
  'catalog',
  'shipping',
  'reporting',
  'webhooks',
] as const;

export const ADJECTIVES = [
  'nightly',
  'regional',
  'primary',
  'legacy',
  'async',
  'batch',
  'shadow',
  'canary',
  'fallback',
  'hourly',
  'internal',
  'partner',
] as const;

export const NOUNS = [
  'reconciliation job',
  'export worker',
  'rate limiter',
  'retry queue',
  'cache warmer',
  'audit trail',
  'settlement run',
  'fraud check',
  'schema migration',
  'index rebuild',
  'token refresher',
  'dead-letter queue',
] as const;

export const SETTINGS = [
  'retry limit',
  'cache TTL in seconds',
  'worker concurrency',
  'request timeout in milliseconds',
  'batch size',
  'rollout percentage',
  'connection pool size',
  'log sampling rate per thousand',
] as const;

export const SYMPTOMS = [
  'the integration tests time out',
  'the p99 latency doubled since Tuesday',
  'requests fail with a 502 after the deploy',
  'the queue keeps growing overnight',
  'memory climbs until the pod is killed',
  'the totals are off by a few cents',
  'duplicate emails go out',
  'the job silently skips some rows',
] as const;

export const VERBS = [
  'look at',
  'check',
  'review',
  'dig into',
  'read',
  'skim',
  'go through',
  'inspect',
] as const;

export const FILLER_WORDS =
  'the a request response handler module config value queue worker record batch cursor payload header retry budget window field schema index table row column token session client server cache entry result error status flag test fixture branch commit merge deploy release build step stage job task pipeline owner review note draft plan'.split(
    ' ',
  );

export const PEOPLE = [
  'Marguerite',
  'Tobias',
  'Ingrid',
  'Ravi',
  'Oluwaseun',
  'Annika',
  'Mateo',
  'Keiko',
  'Dariusz',
  'Fenella',
  'Ximena',
  'Bartholomew',
] as const;

export const TEAMS = [
  'audit',
  'treasury',
  'platform',
  'risk',
  'growth',
  'compliance',
  'data',
  'mobile',
] as const;

/** Pairs of a thing chosen and the alternative it beat. */
export const CHOICES = [
  ['Postgres', 'DynamoDB'],
  ['a message queue', 'polling'],
  ['server-side rendering', 'a single-page app'],
  ['idempotency keys', 'distributed locks'],
  ['a monorepo', 'separate repositories'],
  ['gRPC', 'REST'],
  ['feature flags', 'long-lived branches'],
  ['blue-green deploys', 'rolling deploys'],
  ['event sourcing', 'plain CRUD tables'],
  ['Redis streams', 'Kafka'],
] as const;

export const REASONS = [
  'we need transactional writes across orders and payments',
  'the team already runs it in production and knows its failure modes',
  'it keeps the p99 under the partner contract limit',
  'auditors asked for a full history of every change',
  'it lets us roll back in under a minute',
  'the vendor quote for the alternative was three times higher',
  'retries must never charge a customer twice',
  'the mobile clients cannot upgrade for another quarter',
] as const;

export const CJK_ASKS = [
  '请检查一下这个模块的配置，告诉我为什么启动失败。',
  '这个测试为什么一直超时？请帮我看看日志。',
  'このエラーの原因を調べて、修正案を教えてください。',
  'ログを確認して、どのリクエストが失敗したか教えてください。',
  '배포 후에 왜 응답이 느려졌는지 확인해 주세요.',
] as const;

export const CJK_PROSE = [
  '该服务负责处理所有的支付请求，并将结果写入账本数据库。每个请求都带有唯一的幂等键，以防止重复扣款。',
  '在高峰时段，队列长度可能超过一万条消息，因此我们增加了消费者的数量并调整了批处理大小。',
  'このサービスはすべての決済リクエストを処理し、結果を台帳データベースに書き込みます。',
  'ピーク時にはキューの長さが一万件を超えることがあるため、コンシューマーの数を増やしました。',
  '이 서비스는 모든 결제 요청을 처리하고 결과를 원장 데이터베이스에 기록합니다.',
] as const;
