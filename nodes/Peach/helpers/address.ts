/** This machine's own addresses: a URL on them reaches services on the n8n host itself. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i;

/** Whether a URL points at this machine (a text that is no URL counts: nothing may go there). */
export function isLoopback(url: string): boolean {
	try {
		return LOOPBACK.test(new URL(url).hostname);
	} catch {
		return true;
	}
}
