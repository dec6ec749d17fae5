// Package lbquiz ist Übung 3 der Lektion „Lastverteilung“: Was zeigen die
// Messungen?
//
// Lies die vier Fälle mit ihren Optionen A bis D in der Aufgabe und trage in
// Answer je einen Buchstaben ein.
//
// Prüfe deine Antwort mit
//
//	kurs check lbquiz
//
// und hole dir mit
//
//	kurs hint lbquiz
//
// den nächsten Hinweis.
package lbquiz

// Answer enthält die Buchstaben der gewählten Optionen (A, B, C oder D) für
// die Fälle 1 bis 4 der Reihe nach, z. B. [4]string{"W", "X", "Y", "Z"}.
// Jeder Fall wird einzeln bewertet; Groß- und Kleinschreibung spielen keine
// Rolle.
//
//   - Fall 1: Acht Balancer wählen per Least Connections aus einer
//     gemeinsamen Tabelle, die alle fünf Sekunden neu geschrieben wird. Was
//     hilft am direktesten?
//   - Fall 2: Eine Million Jobs, eine Million Warteschlangen: Was bringt eine
//     zweite zufällige Wahl?
//   - Fall 3: Eines von 16 Backends ist halb so schnell, gewichtetes Round
//     Robin bei 80 % Last. Welche Einstellung ist am gefährlichsten?
//   - Fall 4: Eine Antwort mit EDNS Client Subnet und SCOPE PREFIX-LENGTH /0.
//     Was darf der Resolver damit tun?
//
// TODO: die vier Buchstaben eintragen.
var Answer = [4]string{"", "", "", ""}
