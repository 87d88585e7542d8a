import { PoolClient, Query, QueryConfig, QueryResult, QueryResultRow } from 'pg';
// node-postgres's own mapping of a JavaScript value to a parameter's text (dates, arrays, objects).
import { prepareValue } from 'pg/lib/utils';
import { Queryable } from './postgres-collection';

/*
 * How the PostgreSQL store puts several statements in one round trip (a socket write costs more
 * CPU here than most statements' execution: docs/PERFORMANCE.md, issue 44). node-postgres sends
 * one statement per Sync; the queries below add their own messages around a statement's, under
 * one Sync, and the server answers all of them before its ReadyForQuery. A named statement is
 * prepared on the connection on its own the first time (`prepared`), so that node-postgres knows it
 * is, and keeps its plan after.
 */

/** A statement of the store: named (prepared once per connection) or unnamed (parsed each time). */
export type Statement = QueryConfig;

/** A query of several statements: what it carries, in order (for logs and tests). */
export interface RoundTrip {
  readonly texts: readonly string[];
}

/**
 * `client` for a transaction whose BEGIN is not sent yet (`started.begun` false): the first statement
 * carries it, its Bind and Execute after BEGIN's, in one round trip instead of two. A named one keeps
 * its plan (a plan of the like's flip costs PostgreSQL more than its execution).
 */
export function withBegin(client: PoolClient, started: { begun: boolean }): Queryable {
  return {
    async query<R extends QueryResultRow>(config: QueryConfig): Promise<QueryResult<R>> {
      if (started.begun) return client.query<R>(config);
      // A statement refused as it is prepared (its table not created yet) leaves no transaction open.
      await prepared(client, config);
      started.begun = true;
      return lastOf(await pipelined<R>(client, new AfterBegin(config)));
    },
  };
}

/**
 * COMMIT with the statements that go with it (`writeWithCommit`'s, the bump of the caches'
 * versions) in one round trip: BEGIN first when nothing was sent yet, then each statement, then
 * COMMIT. The first error stops the rest, COMMIT included: the transaction is then rolled back.
 * Returns each statement's result, in order.
 */
export async function commitWith(client: PoolClient, statements: readonly Statement[], begin: boolean): Promise<QueryResult[]> {
  if (statements.length === 0) {
    await client.query(begin ? 'BEGIN; COMMIT' : 'COMMIT');
    return [];
  }
  for (const statement of statements) await prepared(client, statement);
  const results = await pipelined(client, new ThenCommit(statements, begin));
  // node-postgres collects one result per statement of the round trip: BEGIN's, theirs, COMMIT's.
  return (results as QueryResult[]).slice(begin ? 1 : 0, -1);
}

/** The last statement's result of a multi-statement round trip. */
export function lastOf<R extends QueryResultRow>(results: QueryResult<R> | QueryResult<R>[]): QueryResult<R> {
  return Array.isArray(results) ? results[results.length - 1] : results;
}

/**
 * Distinct statement texts given a name, and the most parameters of one: a text with a list of
 * parameters per value (`IN ($1, $2, ...)`) has a variant per length, each of which PostgreSQL would
 * keep a plan of on every connection. Beyond these, statements go unnamed.
 */
const MAX_NAMED_STATEMENTS = 500;
const MAX_NAMED_PARAMETERS = 16;

/**
 * Names for the store's statements with parameters: node-postgres prepares a named statement once
 * per connection, after which PostgreSQL only binds and executes it (no parse and analysis per
 * call, and a generic plan once it pays).
 */
export class PreparedStatements {
  private readonly names = new Map<string, string>();

  /** `fixedText`: the text does not vary with its values (no list of parameters per value), however many it has. */
  named<C extends QueryConfig>(config: C, fixedText = false): C {
    if (!config.values?.length || (config.values.length > MAX_NAMED_PARAMETERS && !fixedText)) return config;
    let name = this.names.get(config.text);
    if (name === undefined && this.names.size < MAX_NAMED_STATEMENTS) this.names.set(config.text, (name = `s${this.names.size}`));
    return name === undefined ? config : { ...config, name };
  }

  /** `on`, naming the statements sent through it. */
  naming(on: Queryable): Queryable {
    return { query: <R extends QueryResultRow>(config: QueryConfig) => on.query<R>(this.named(config)) };
  }
}

// ---------------------------------------------------------------- the messages

/** What node-postgres's connection offers a query as it submits it (not in its typings). */
interface PipelineConnection {
  parsedStatements: Record<string, string | undefined>;
  parse(message: { text: string; name?: string }): void;
  bind(message: object): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: object): void;
  sync(): void;
}

/** node-postgres's own submission of a query's statement: Parse unless prepared, Bind, Describe, Execute, Sync. */
const submitOwn = (Query.prototype as unknown as { prepare(this: Query, connection: PipelineConnection): void }).prepare;

/** A named statement not yet prepared on the connection is prepared there, on its own, once. */
async function prepared(client: PoolClient, statement: Statement): Promise<void> {
  const { parsedStatements } = (client as unknown as { connection: PipelineConnection }).connection;
  if (statement.name && parsedStatements[statement.name] === undefined) await pipelined(client, new PrepareOnly(statement));
}

function pipelined<R extends QueryResultRow>(client: PoolClient, query: Query): Promise<QueryResult<R> | QueryResult<R>[]> {
  return new Promise((resolve, reject) => {
    (query as unknown as { callback: (err: Error | null, results: QueryResult<R> | QueryResult<R>[]) => void }).callback = (err, results) => (err ? reject(err) : resolve(results));
    client.query(query);
  });
}

/** Parse (unnamed), Bind, Execute: a statement without parameters or rows, as BEGIN. */
function sendPlain(connection: PipelineConnection, text: string): void {
  connection.parse({ text });
  connection.bind({});
  connection.execute({});
}

/** A statement's Bind, Describe and Execute, its Parse first when unnamed (a named one is prepared). */
function sendStatement(connection: PipelineConnection, { name, text, values }: Statement): void {
  if (!name) connection.parse({ text });
  connection.bind({ statement: name ?? '', values: values ?? [], valueMapper: prepareValue });
  // Its rows, if it returns any, are described: node-postgres reads no row without a description.
  connection.describe({ type: 'P', name: '' });
  connection.execute({});
}

/** A statement's Parse alone: node-postgres marks its name prepared on the connection once the server accepts it. */
class PrepareOnly extends Query implements RoundTrip {
  readonly texts: string[];

  constructor(private readonly statement: Statement) {
    super({ text: statement.text, name: statement.name });
    this.texts = [`PREPARE ${statement.text}`];
  }

  requiresPreparation(): boolean {
    return true;
  }

  prepare(connection: PipelineConnection): void {
    connection.parse({ text: this.statement.text, name: this.statement.name });
    connection.sync();
  }
}

/**
 * BEGIN ahead of the statement's own messages; node-postgres collects both results. A named
 * statement must be prepared already: BEGIN's ParseComplete would mark the query's name as
 * parsed, which would be wrong if its own Parse then failed.
 */
class AfterBegin extends Query implements RoundTrip {
  readonly texts: string[];

  constructor(config: Statement) {
    super(config);
    this.texts = ['BEGIN', config.text];
  }

  requiresPreparation(): boolean {
    return true; // the extended protocol even without parameters: BEGIN's messages go first
  }

  prepare(connection: PipelineConnection): void {
    sendPlain(connection, 'BEGIN');
    submitOwn.call(this, connection);
  }
}

class ThenCommit extends Query implements RoundTrip {
  readonly texts: string[];

  constructor(
    private readonly statements: readonly Statement[],
    private readonly begin: boolean,
  ) {
    super({ text: 'COMMIT' });
    this.texts = [...(begin ? ['BEGIN'] : []), ...statements.map((s) => s.text), 'COMMIT'];
  }

  requiresPreparation(): boolean {
    return true;
  }

  prepare(connection: PipelineConnection): void {
    if (this.begin) sendPlain(connection, 'BEGIN');
    try {
      for (const statement of this.statements) sendStatement(connection, statement);
    } catch (err) {
      // A value that cannot be sent: what went before runs up to the Sync, and the caller rolls back.
      connection.sync();
      (this as unknown as { handleError(err: Error, connection: PipelineConnection): void }).handleError(err as Error, connection);
      return;
    }
    submitOwn.call(this, connection);
  }
}
