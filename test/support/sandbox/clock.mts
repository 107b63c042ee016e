type Timer = ReturnType<typeof setTimeout>;

/** Owns every timer the sandbox starts so that close() and reset() can stop them all. */
export class Scheduler {
	#timers = new Set<Timer>();
	#timeScale: () => number;

	constructor(timeScale: () => number) {
		this.#timeScale = timeScale;
	}

	/** Converts a duration in service time into real milliseconds. */
	scaled(serviceMs: number): number {
		return serviceMs / this.#timeScale();
	}

	after(realMs: number, task: () => void): void {
		const timer = setTimeout(() => {
			this.#timers.delete(timer);
			task();
		}, realMs);
		this.#timers.add(timer);
	}

	sleep(realMs: number): Promise<void> {
		return new Promise((resolve) => this.after(realMs, resolve));
	}

	clearAll(): void {
		for (const timer of this.#timers) clearTimeout(timer);
		this.#timers.clear();
	}
}
