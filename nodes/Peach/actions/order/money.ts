/** Peach's minor units (paise) as rupees a person reads: 300000 → "₹3,000.00". Pure. */
export function rupees(paise: number): string {
	return new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(paise / 100);
}
