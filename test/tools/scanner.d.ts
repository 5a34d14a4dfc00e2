// Types for the part of @n8n/scan-community-package (plain ESM, no declarations) that npm run scan uses.
declare module '@n8n/scan-community-package/scanner/scanner.mjs' {
	export interface ScanResult {
		passed: boolean;
		message?: string;
		details?: string;
	}
	export const SOURCE_FILE_PATTERNS: string[];
	export function analyzePackage(packageDir: string, filePatterns?: string[]): Promise<ScanResult>;
}
