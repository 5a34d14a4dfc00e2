/**
 * n8n's real deduplication store for one process of the store attack (run with the provisioned
 * n8n host's Node 24): n8n 2.40.7's DeduplicationHelper (n8n/dist/deduplication) installed in n8n-core's
 * DataDeduplicationService, exactly as n8n's BaseCommand does at start-up, and each node's helpers made
 * by n8n-core's getDeduplicationHelperFunctions(workflow, node), as n8n-core gives them to a node's
 * execute context. The database connection is built from n8n's own DbConnectionOptions (SQLite:
 * `sqlite-pooled` with WAL, PostgreSQL: `postgres`, from DB_* variables as n8n reads them), with the
 * one entity the store uses (ProcessedData) and no migrations: the table is made by `createTable`
 * (TypeORM's synchronize of that entity, what n8n's code allows without its 200 migrations and the
 * workflow table the migration's foreign key points to).
 *
 * Nothing here is the package's code: it is the n8n a node runs in.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** What a node's helpers offer for the store (n8n-core's getDeduplicationHelperFunctions). */
export interface NodeStore {
	checkProcessedAndRecord(
		items: Array<string | number>,
		scope: 'node' | 'workflow',
		options: { mode: 'entries'; maxEntries?: number },
	): Promise<{ new: Array<string | number>; processed: Array<string | number> }>;
	removeProcessed(
		items: Array<string | number>,
		scope: 'node' | 'workflow',
		options: { mode: 'entries' },
	): Promise<void>;
}

interface DataSourceLike {
	initialize(): Promise<unknown>;
	synchronize(): Promise<void>;
	destroy(): Promise<void>;
	query(sql: string, parameters?: unknown[]): Promise<unknown>;
	options: { type: string };
}

export interface N8nStore {
	helpersFor(workflowId: string, nodeId: string): NodeStore;
	/** The row of a node as stored (processed_data.value), by direct SQL; undefined when none. */
	readRow(workflowId: string, nodeId: string): Promise<string | undefined>;
	/** Writes a row's value back as an older writer would, by direct SQL. */
	writeRow(workflowId: string, nodeId: string, value: string): Promise<void>;
	/** How many entries a row holds. */
	entries(workflowId: string, nodeId: string): Promise<number>;
	close(): Promise<void>;
}

export interface DatabaseChoice {
	type: 'sqlite' | 'postgresdb';
	/** SQLite: the database file (n8n resolves it in N8N_USER_FOLDER/.n8n). */
	sqliteFolder?: string;
	postgresPort?: number;
}

/** Sets the variables n8n's GlobalConfig reads: they must be set before @n8n/config loads. */
function configure(database: DatabaseChoice): void {
	process.env.DB_TYPE = database.type;
	process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
	if (database.type === 'sqlite') {
		process.env.N8N_USER_FOLDER = database.sqliteFolder;
		process.env.DB_SQLITE_DATABASE = 'store.sqlite';
	} else {
		process.env.DB_POSTGRESDB_HOST = '127.0.0.1';
		process.env.DB_POSTGRESDB_PORT = String(database.postgresPort);
		process.env.DB_POSTGRESDB_USER = 'postgres';
		process.env.DB_POSTGRESDB_DATABASE = 'n8n';
		process.env.DB_POSTGRESDB_PASSWORD = '';
	}
}

export async function openN8nStore(
	n8nModules: string,
	database: DatabaseChoice,
	createTable = false,
): Promise<N8nStore> {
	configure(database);
	const load = createRequire(join(n8nModules, 'n8n/package.json'));
	load('reflect-metadata');
	const { Container } = load('@n8n/di') as {
		Container: { get<T>(token: unknown): T; set(token: unknown, value: unknown): void };
	};
	const { DataSource } = load('@n8n/typeorm') as {
		DataSource: new (options: object) => DataSourceLike;
	};
	const db = load('@n8n/db') as {
		DbConnectionOptions: unknown;
		ProcessedData: unknown;
		ProcessedDataRepository: unknown;
	};
	const options = Container.get<{ getOptions(): Record<string, unknown> }>(
		db.DbConnectionOptions,
	).getOptions();
	const dataSource = new DataSource({
		...options,
		entities: [db.ProcessedData],
		subscribers: [],
		migrations: [],
		logging: false,
	});
	await dataSource.initialize();
	if (createTable) await dataSource.synchronize();
	Container.set(DataSource, dataSource);
	const { getDataDeduplicationService } = load('n8n/dist/deduplication') as {
		getDataDeduplicationService(): unknown;
	};
	const core = load('n8n-core') as {
		DataDeduplicationService: { init(helper: unknown): Promise<void> };
	};
	await core.DataDeduplicationService.init(getDataDeduplicationService());
	const { getDeduplicationHelperFunctions } = load(
		'n8n-core/dist/execution-engine/node-execution-context/utils/deduplication-helper-functions.js',
	) as { getDeduplicationHelperFunctions(workflow: object, node: object): NodeStore };
	const postgres = database.type === 'postgresdb';
	const where = postgres
		? `"workflowId" = $1 AND context = $2`
		: `"workflowId" = ? AND context = ?`;
	const readRow = async (workflowId: string, nodeId: string) => {
		const rows = (await dataSource.query(`SELECT value FROM processed_data WHERE ${where}`, [
			workflowId,
			`n:${nodeId}`,
		])) as Array<{ value: unknown }>;
		if (!rows.length) return undefined;
		const { value } = rows[0];
		return typeof value === 'string' ? value : JSON.stringify(value);
	};
	return {
		helpersFor: (workflowId, nodeId) =>
			getDeduplicationHelperFunctions(
				{ id: workflowId, name: `store attack ${workflowId}` },
				{ id: nodeId, name: 'Peach', type: 'n8n-nodes-peach.peach', typeVersion: 1 },
			),
		readRow,
		async writeRow(workflowId, nodeId, value) {
			const set = postgres ? `value = $3` : `value = ?`;
			const parameters = postgres
				? [workflowId, `n:${nodeId}`, value]
				: [value, workflowId, `n:${nodeId}`];
			await dataSource.query(`UPDATE processed_data SET ${set} WHERE ${where}`, parameters);
		},
		async entries(workflowId, nodeId) {
			const row = await readRow(workflowId, nodeId);
			if (!row) return 0;
			const parsed = JSON.parse(row) as { data?: unknown[] };
			return Array.isArray(parsed.data) ? parsed.data.length : 0;
		},
		close: async () => await dataSource.destroy(),
	};
}
