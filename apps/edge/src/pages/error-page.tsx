import { AREAS, Layout, type Area } from "./layout";

/** A refusal or failure, said plainly, with the way back. */
export function ErrorPage(props: { area: Area; status: number; title: string; message: string }) {
  return (
    <Layout title={props.title} area={props.area}>
      <div class="auth">
        <div class="card">
          <p class="muted small">Error {props.status}</p>
          <h1>{props.title}</h1>
          <p class="lede">{props.message}</p>
          <p>
            <a class="btn btn-secondary" href={AREAS[props.area].home}>
              Back to the {props.area === "tenant" ? "dashboard" : "console"}
            </a>
          </p>
        </div>
      </div>
    </Layout>
  );
}
