// The entry of a SigningPool worker thread. Node does not hand a thread the TypeScript loader
// its parent runs under (tsx), so the worker registers it, then loads the worker proper.
import { register } from "tsx/esm/api"

register()
await import("./hashWorker.ts")
