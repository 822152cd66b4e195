/** The "Simulated" badge the console puts on sim answers, said of figures: they measure the harness, not a model. */
export function SimulatedNote({ simulated, total }: { simulated: number; total: number }) {
  if (simulated === 0) return null;
  const all = simulated === total;
  return (
    <p className="simulated" data-testid="calibration-simulated">
      <span className="badge sim" data-testid="simulated-badge">Simulated</span>{" "}
      {all ? `All ${total} outcomes belong` : `${simulated} of ${total} outcomes belong`} to rankings scored by the offline sim model (pixel statistics and copy
      heuristics, not a language model). {all ? "These figures" : "Figures over them"} measure the harness, not a model: real-model fidelity is measured with real
      providers and your own outcomes.
    </p>
  );
}
