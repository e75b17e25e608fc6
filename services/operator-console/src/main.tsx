import { render } from "preact";

function Console() {
  return (
    <main>
      <h1>Operations console</h1>
    </main>
  );
}

render(<Console />, document.getElementById("app")!);
