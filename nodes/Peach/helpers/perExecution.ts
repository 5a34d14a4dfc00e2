/**
 * What the node keeps for one run of it, "per execution" in the package's words: a value made once
 * from the first call with a context and handed back to every later call with the same one.
 *
 * The assumption, stated once: the key is the object n8n hands the node's method as `this`, its
 * execute context (`IExecuteFunctions`; `ILoadOptionsFunctions` for a list search, `IHookFunctions`
 * for a webhook hook). n8n makes a new one for each run of the node (n8n-core
 * `WorkflowExecute.executeNode`, `new ExecuteContext(…)`: 2.40.3 workflow-execute.js L594, 1.122.48
 * L578), so a Retry On Fail try, a later run (Loop Over Items) and a Retry each start afresh, and
 * every item of one run shares it. Nothing refers to the object once n8n is done with the run, so
 * the garbage collector takes what was kept for it (a WeakMap): nothing is to be cleared, and a
 * process running many executions keeps none of the finished ones. docs/n8n-assumptions.md lists it.
 */
export function perExecution<Context extends object, Value>(
	create: (context: Context) => Value,
): (context: Context) => Value {
	const kept = new WeakMap<Context, { value: Value }>();
	return (context) => {
		const held = kept.get(context);
		if (held) return held.value;
		const value = create(context);
		kept.set(context, { value });
		return value;
	};
}
