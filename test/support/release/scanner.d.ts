/** Types for the part of `@n8n/scan-community-package` (plain ESM, no declarations) that scan.ts uses. */
declare module '@n8n/scan-community-package/scanner/scanner.mjs' {
	export interface AnalysisResult {
		passed: boolean;
		message?: string;
		details?: string;
	}
	/** The file patterns n8n's gate lints in a package's source checkout. */
	export const SOURCE_FILE_PATTERNS: string[];
	/** Lints `packageDir` with the scanner's flat config (n8n's community-node rules); no network. */
	export function analyzePackage(
		packageDir: string,
		filePatterns?: string[],
	): Promise<AnalysisResult>;
}
