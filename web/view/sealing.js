// The sealed-link driver: a round of secret picks played by link (commit.js
// keeps the secrets and draws the screens). When a game's round has a seal
// waiting, or a person chooses to pick and seal, the game view hands the turn
// to this: which screen the device shows, sealing the first pick, revealing
// it when its link comes back, and giving it up when its secret is lost. It
// reads only what the engine's view says (view.sealing, view.choosing), never
// a board, and works for any game whose joint move can be sealed.
//
// It reaches the game view (gameview.js) through its public methods: ask (a
// bridge call), follow (the address), show, step, drawSoon and explain.

import { confirmDialog } from "../ui/dialog.js";
import { seatName } from "../ui/dom.js";
import { revealText } from "./handover.js";
import {
  findKeep, linkOffer, newSalt, oneScreenSwitch, openPickBanner, openSeal, pickers, sealBanner,
  sealedNoun, sealPhase, sealScreen, stillToPick, storeKeep,
} from "./commit.js";
import { addressOf, shareControls } from "../share/share.js";
import { readSaved } from "../share/saved.js";
import { keepSeats, markSent, sentHere } from "../share/seats.js";

export class SealedLinks {
  /** game: the GameView this drives. */
  constructor(game) {
    this.game = game;
  }

  /** The pick screen of `seat` for play by link: "seal" (first pick, sealed) or "open" (a later one). */
  async pickScreen(seat, byLink) {
    const opened = await this.game.ask("open", { record: this.game.current.private_record, seat });
    return { phase: "pick", seat, seatView: opened.view, byLink };
  }

  /** What a game with an open seal shows here: a later player's open pick, or a screen. */
  async sealedScreen() {
    const { view, seal, linkSeat } = this.game.current;
    const kept = findKeep(seal);
    const phase = sealPhase(view, seal, kept, linkSeat);
    if (phase === "second") return this.pickScreen(stillToPick(view, seal)[0], "open");
    // ("reveal" is played by openLink; a screen waits meanwhile)
    return { phase: "link", link: phase === "reveal" ? "sealed" : phase, seat: seal.seat, kept };
  }

  /** Open a game from a link: when it waits on a pick this device sealed and
   * the other picks are in, reveal it (every device's engine checks the reveal
   * against the seal); else show where it stands. */
  async openLink(opened, keep = {}) {
    const { game } = this;
    const seal = openSeal(opened.view);
    const kept = seal && game.options.byLink ? findKeep(seal) : null;
    if (!kept || sealPhase(opened.view, seal, kept, keep.linkSeat ?? null) !== "reveal") {
      // (what the other player did since, in words: a move, a round's result)
      await game.show(opened, { ...keep, revealed: await this.news(opened, keep.saveId) });
      return;
    }
    const before = opened.view;
    let revealed;
    try {
      revealed = await game.ask("reveal", { record: opened.private_record, seat: seal.seat, pick: kept.pick, salt: kept.salt });
    } catch (error) {
      await game.show(opened, keep);
      game.explain(`The sealed pick could not be revealed: ${error.message}`, "error");
      return;
    }
    if (revealed.view.to_move.length > 1 || revealed.view.is_over) revealed = await game.ask("open", { record: revealed.private_record });
    // (the secret is kept, though the record now shows it: a new game played on
    // from an older link of this round reveals it again, older-link.js)
    game.follow(revealed.record);
    // (the engine's words: the reveal matched its seal, and the round's outcome)
    const words = revealText(before, revealed.view) || `${seatName(before, seal.seat)}'s ${sealedNoun(before)} was revealed and matched its seal.`;
    await game.show(revealed, { ...keep, linkSeat: seal.seat, save: true, revealed: words, focus: "board" });
  }

  /** What a link adds to the copy of its game saved here (`saveId`), in the
   * engine's words (bridge `news`): the other player's moves, a round's result. */
  async news(opened, saveId) {
    const held = saveId ? readSaved(saveId)?.record : null;
    if (!held || held === opened.record) return "";
    try {
      return (await this.game.ask("news", { mine: held, theirs: opened.record })).map((said) => `${said}.`).join(" ");
    } catch {
      return ""; // (nothing to say is no reason not to show the game)
    }
  }

  /** Seal the first pick of a round (bridge `seal`): the record gets the
   * commitment; the secret (`keep`) stays on this device. The public answer. */
  async sealPick(record, seat, pick) {
    const sealed = await this.game.ask("seal", { record, seat, pick, salt: newSalt() });
    if (!storeKeep(sealed.keep)) {
      throw new Error("this browser would not keep the secret of the sealed pick (its storage is blocked or full), so it cannot be sealed here; play at one screen instead");
    }
    return this.game.ask("open", { record: sealed.private_record });
  }

  /** Give up this round's sealed pick (its secret is lost): the view's `sealing.forfeit` move. */
  forfeit() {
    const { game } = this;
    return game.step(async () => {
      const { current } = game;
      const seal = current?.seal;
      if (!seal) return;
      const noun = sealedNoun(current.view);
      const ok = await confirmDialog(`Give up ${seatName(current.view, seal.seat)}'s sealed ${noun} of round ${seal.round}? By the rules, ${seal.forfeit_words}.`);
      if (!ok) return;
      const before = current.view;
      let played = await game.ask("play", { record: current.private_record, move: before.sealing.forfeit, seat: seal.seat });
      played = await game.ask("open", { record: played.private_record });
      game.follow(played.record);
      const words = revealText(before, played.view) || `${seatName(before, seal.seat)} gave up the sealed ${noun}.`;
      await game.show(played, { linkSeat: seal.seat, save: true, revealed: words, focus: "board" });
    });
  }

  /** "I sealed it and its secret is gone": this device plays the sealing seat. */
  sealLost() {
    const { game } = this;
    game.current.linkSeat = game.current.seal.seat;
    game.hotseat = { ...game.hotseat, link: "lost" };
    return game.drawSoon("board");
  }

  /** This device plays `seat` by link: its pick is sealed. */
  chooseSeat(seat) {
    const { game } = this;
    return game.step(async () => {
      game.current.linkSeat = seat;
      // (this device plays that seat from now on, share/seats.js)
      keepSeats(game.current.view.game_id, [seat]);
      game.hotseat = await this.pickScreen(seat, "seal");
      await game.drawSoon("board");
    });
  }

  /** The screen instead of the board while a sealed round waits elsewhere. */
  screen(view) {
    const { current, hotseat } = this.game;
    const seal = current.seal;
    const share = shareControls(addressOf(current.record), { id: "seal-link", title: "Quet Games", text: this.shareAdvice(view) });
    // a pick sealed here can be taken back until its link is sent (Copy link, Share): then it is out of this device's hands
    // (kept with the game's seats on this device, so a reload does not offer it again: share/seats.js)
    const mayTakeBack = hotseat.link === "sealed" && hotseat.kept && !sentHere(view.game_id, seal.commitment);
    if (mayTakeBack) {
      share.addEventListener("click", (event) => {
        if (!event.target.closest?.(".copy-link, .share-button")) return;
        markSent(view.game_id, seal.commitment);
        share.closest(".seal-screen")?.querySelector(".seal-take-back")?.remove();
      });
    }
    return sealScreen(view, {
      phase: hotseat.link, seal, kept: hotseat.kept, share,
      onForfeit: () => this.forfeit(),
      onLost: current.linkSeat == null ? () => this.sealLost() : null,
      onTakeBack: mayTakeBack ? () => this.takeBack() : null,
    });
  }

  /** Take back the pick sealed here (its link not sent): the game as it was before the seal. */
  takeBack() {
    const { game } = this;
    return game.step(async () => {
      const { current } = game;
      const plies = await game.position.plyCount();
      const at = await game.ask("at", { record: current.private_record, ply: plies - 1 });
      game.follow(at.record);
      await game.show({ record: at.record, private_record: at.private_record, view: at.view }, { save: true, focus: "board" });
      game.explain("Your sealed pick was taken back: choose again.", "info");
    });
  }

  /** Under the hot-seat "ask" screen: the way to play by link, where the engine lets a seat seal now. */
  offer(view) {
    return this.game.options.byLink && view.sealing?.may_seal?.length ? linkOffer(view, (seat) => this.chooseSeat(seat)) : null;
  }

  /** The banner over a by-link pick screen, or null for another screen. */
  banner(view, hotseat, reveal) {
    if (hotseat.byLink === "seal") return sealBanner(view, hotseat.seat, { reveal });
    if (hotseat.byLink === "open") return openPickBanner(view, hotseat.seat, this.game.current.seal, { reveal });
    return null;
  }

  /** Under a sealing pick screen: the way back to one screen. */
  switchBack(hotseat, onOneScreen) {
    return hotseat.byLink === "seal" ? oneScreenSwitch(onOneScreen) : null;
  }

  /** What to do with the link now while a seal is open, in words; null when none is. */
  shareAdvice(view) {
    const { current, hotseat } = this.game;
    if (!current.seal) return null;
    if (hotseat?.byLink === "open") return `Choose your number first; then send the new link back to ${seatName(view, current.seal.seat)}.`;
    if (hotseat?.phase !== "link") return null;
    const sealer = seatName(view, current.seal.seat);
    const picker = pickers(view, current.seal);
    if (hotseat.link === "sealed") return `Send this link to ${picker}: it carries a seal of your pick, not the pick.`;
    if (hotseat.link === "lost") return `This link holds the game as it stands, with ${sealer}'s seal; it can be opened on the device that holds the seal's secret.`;
    return `Send this link to ${sealer}, who sealed a pick and reveals the round by opening it.`;
  }
}
