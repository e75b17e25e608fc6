import { render } from "preact";

function PassengerApp() {
  return (
    <main>
      <h1>Your stay</h1>
    </main>
  );
}

render(<PassengerApp />, document.getElementById("app")!);
