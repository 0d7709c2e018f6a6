import { useEffect, useState } from "react";

const LABELS = ["Too weak", "Weak", "Fair", "Good", "Strong"];

type Strength = { score: number; warning: string; suggestions: string[] };

let estimator: ((password: string) => Strength) | null = null;

/** zxcvbn-ts with its common and English dictionaries, loaded on first use (only the sign-up page needs it). */
async function loadEstimator() {
  if (estimator) return estimator;
  const [{ zxcvbn, zxcvbnOptions }, common, en] = await Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-en"),
  ]);
  zxcvbnOptions.setOptions({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
  });
  estimator = (password) => {
    const r = zxcvbn(password);
    return { score: r.score, warning: r.feedback.warning ?? "", suggestions: r.feedback.suggestions ?? [] };
  };
  return estimator;
}

/**
 * How strong the typed password is (zxcvbn-ts score 0-4, with its advice), updated as the user types.
 * Advice only: the server refuses the most common passwords whatever this says.
 */
export function PasswordStrength({ password }: { password: string }) {
  const [strength, setStrength] = useState<Strength | null>(null);
  useEffect(() => {
    if (!password) {
      setStrength(null);
      return;
    }
    let current = true;
    loadEstimator().then((estimate) => current && setStrength(estimate(password)));
    return () => {
      current = false;
    };
  }, [password]);
  if (!strength) return null;
  const advice = strength.warning || strength.suggestions[0] || "";
  return (
    <div className={`strength strength-${strength.score}`} data-testid="password-strength">
      <div className="strength-bar" aria-hidden>
        {LABELS.map((_, i) => (
          <span key={i} className={i <= strength.score ? "on" : ""} />
        ))}
      </div>
      <p className="small" aria-live="polite">
        <strong>{LABELS[strength.score]}</strong>
        {advice ? ` · ${advice}` : ""}
      </p>
    </div>
  );
}
