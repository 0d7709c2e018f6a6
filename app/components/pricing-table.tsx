import type { PlanRow } from "~/platform/shapes/pricing";

/** An app's plans: name, price, trial and usage terms (marketplace app page, consent screen). */
export function PricingTable({ plans, caption }: { plans: PlanRow[]; caption: string }) {
  if (plans.length === 0) return null;
  return (
    <div className="table-scroll">
      <table className="table pricing-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Plan</th>
            <th scope="col">Price</th>
            <th scope="col">Trial</th>
            <th scope="col">Usage</th>
          </tr>
        </thead>
        <tbody>
          {plans.map((p) => (
            <tr key={p.id}>
              <th scope="row">{p.name}</th>
              <td>{p.price}</td>
              <td>{p.trial ?? "—"}</td>
              <td>{p.usage ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
