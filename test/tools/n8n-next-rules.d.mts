import type { Rule } from 'eslint';

/** test/tools/n8n-next-rules.mjs: n8n's newest community-node rules, ahead of its published plugin. */
export declare const n8nNextRules: { rules: Record<string, Rule.RuleModule> };
