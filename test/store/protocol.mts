/** What run.mts and the store attack's processes (worker.mts) tell each other over IPC. */

/** A delivery: its lane (recipient) and its key (what Peach counts). */
export interface Delivery {
	lane: string;
	key: string;
}

/** One execution of the node (or a Retry of one: `retry`, same `establishedAt`, new ID). */
export interface Execution {
	workflowId: string;
	nodeId: string;
	executionId: string;
	establishedAt: number;
	retry: boolean;
	deliveries: Delivery[];
	peachUrl: string;
}

/** What the harness does to the process at a store call (numbered from 1 in the process) or request. */
export interface Attack {
	killBeforeCall?: number;
	killAfterCall?: number;
	/** Peach accepts this request (numbered from 1), then SIGKILLs the process. */
	killAtPost?: number;
	/** An older copy of the row read right before this call, written back `cycleMs` after its read. */
	staleAtCall?: number;
	cycleMs?: number;
}

export interface Job {
	id: number;
	executions: Execution[];
	attack?: Attack;
	/** When its executions begin (Date.now()): processes given the same moment start together. */
	startAt?: number;
	/** How long the process stays after its runs (their replacements are proven beside them). */
	lingerMs?: number;
}

/** How the process decided each delivery, by key. */
export type Decision =
	| 'made'
	| 'madeUnknown'
	| 'earlierSent'
	| 'earlierUnknown'
	| 'claimedElsewhere'
	| `notKept: ${string}`;

export interface ExecutionResult {
	executionId: string;
	decided: Record<string, Decision>;
}

/** One call to n8n's store: its kind, how many items, when it began, how long it took, the wait then. */
export interface CallLog {
	kind: 'check' | 'remove';
	items: number;
	started: number;
	ms: number;
	pid: number;
	wait: number;
}

/** The slow writer (another process) asked to read the row now and write it back `cycleMs` later. */
export interface OlderCopy {
	olderCopy: number;
	id: number;
	workflowId: string;
	nodeId: string;
	cycleMs: number;
}

/** To a process: the job to run, the slow writer's order, or word that it has read the row. */
export type ToWorker = Job | OlderCopy | { readDone: number };

export type WorkerMessage =
	| { type: 'ready' }
	| ({ type: 'olderCopy' } & OlderCopy)
	| { type: 'read'; olderCopy: number }
	| { type: 'stale'; id: number; cycleMs: number; wait: number }
	| { type: 'done'; id: number; results: ExecutionResult[]; calls: CallLog[] }
	| { type: 'failed'; id: number; error: string; calls: CallLog[] };
