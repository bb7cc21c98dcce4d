"""The design's own pitfalls, for every backend (issue 25): a question answered "I'll think about it" is no fact,
"hesitating between plans A and B" is no decision, a value the user is moving away from is not the fact. The
English quotes and values are a 1.5B model's answers."""

import pytest

from memory_pipeline.domain.gates import gate

PRICE = ("How much is the annual plan?", "The annual plan is 120 euros a year, billed once.")
INVOICES = "Our invoices keep coming in dollars. We need them in euros, always."


@pytest.mark.parametrize("quote,attribute,value", [
    ("OK, I'll think about it.", "decision:annual_plan", "think about buying an annual plan"),
    ("OK, I'll think about it.", None, None),
    ("I'm hesitating between the Team plan and the Business plan, I'll decide next week.", "decision:plan",
     "Business plan"),
    ("I'm hesitating between the Team plan and the Business plan", "decision:plan", "Team plan"),
    ("Je vais y réfléchir.", "decision:forfait_annuel", "forfait annuel"),
    ("J'hésite entre le forfait Team et le forfait Business.", "decision:forfait", "forfait Business"),
    ("Ich überlege noch, ob ich das Jahresabo nehme.", "decision:jahresabo", "Jahresabo"),
    ("Lo pensaré, gracias.", "decision:plan_anual", "plan anual"),
    ("我再考虑一下年度套餐。", "decision:年度套餐", "年度套餐"),
])
def test_a_choice_left_open_is_no_fact(quote, attribute, value):
    assert gate(quote, quote, attribute, value, False, answered=PRICE) == "quote_is_undecided"


@pytest.mark.parametrize("message,quote,value", [
    (INVOICES, "Our invoices keep coming in dollars.", "dollars"),
    (INVOICES, INVOICES, "dollars"),
    ("I want the invoices in euros instead of dollars.", "I want the invoices in euros instead of dollars.",
     "dollars"),
    ("Nos factures continuent d'arriver en dollars. Il nous les faut en euros.", "Nos factures continuent "
     "d'arriver en dollars.", "dollars"),
    ("Die Rechnungen kommen immer noch in Dollar. Wir brauchen sie in Euro.", "Die Rechnungen kommen immer noch "
     "in Dollar.", "Dollar"),
    ("Las facturas siguen llegando en dólares. Necesitamos euros.", "Las facturas siguen llegando en dólares.",
     "dólares"),
    ("发票一直是美元。我们需要欧元。", "发票一直是美元。", "美元"),
])
def test_a_value_the_user_moves_away_from_is_not_the_fact(message, quote, value):
    assert gate(quote, message, "invoice_currency", value, False) == "value_moved_away"


@pytest.mark.parametrize("message,quote,value", [
    (INVOICES, "We need them in euros, always.", "euros"),
    (INVOICES, INVOICES, "euros"),
    ("I want the invoices in euros instead of dollars.", "I want the invoices in euros instead of dollars.",
     "euros"),
    ("Our invoices come in dollars.", "Our invoices come in dollars.", "dollars"),   # nothing else is wanted
    ("发票一直是美元。我们需要欧元。", "我们需要欧元。", "欧元"),
])
def test_the_value_the_user_wants_stands(message, quote, value):
    assert gate(quote, message, "invoice_currency", value, False) is None


@pytest.mark.parametrize("quote,attribute,value", [
    ("I decided to take the Team plan.", "decision:plan", "Team plan"),
    ("We'll take the annual plan.", "decision:plan", "annual plan"),
    ("I thought about it and I'll take the Business plan.", "decision:plan", "Business plan"),
    ("I moved from Paris to Lyon last year.", "home_location", "Lyon"),
])
def test_a_choice_made_stands(quote, attribute, value):
    assert gate(quote, quote, attribute, value, False) is None


@pytest.mark.parametrize("quote, attribute, value, reason", [
    # a break-it review (session 20): a hedge said alone, after the statement, at the sentence's end
    ("I'm moving to Leeds next month, not sure yet", "home_location", "Leeds", "quote_is_hypothetical"),
    ("ย้ายไปอยู่เชียงใหม่เดือนหน้า ยังไม่แน่ใจค่ะ", "home_location", "เชียงใหม่", "quote_is_hypothetical"),
    ("我下个月搬到上海，还不确定", "home_location", "上海", "quote_is_hypothetical"),
    # ... and not when the hedge has words of its own, or opens the sentence (a review of session 21)
    ("I live in Leeds, not sure about the weather there though", "home_location", "Leeds", None),
    ("I'm vegetarian, maybe that helps.", "diet", "vegetarian", None),
    ("Not sure it matters, but I'm vegetarian.", "diet", "vegetarian", None),
    ("I'll go with Premium, not sure about extras.", "decision:plan", "Premium", None),
    ("Vivo en Madrid, quizás te sirva", "home_location", "Madrid", None),
    ("我是素食者，可能你知道", "diet", "素食", None),
    ("Moving to Leeds next month, my wife too.", "home_location", "Leeds", None),
])
def test_a_bare_hedge_ending_a_sentence_hedges_the_statement_before_it(quote, attribute, value, reason):
    assert gate(quote, quote, attribute, value, False) == reason


def test_thanks_for_the_information_after_an_offer_accepts_nothing():
    # a break-it review (session 20): "ok, thanks for the info" after an upgrade offer became the upgrade
    offer = ["I can upgrade you to the Premium plan for $20/month, which adds priority support. Want me to do that?"]
    assert gate("ok, thanks for the info", "ok, thanks for the info", "decision:upgrade", "Premium plan", False,
                answered=offer) == "quote_is_pleasantry"
    assert gate("ok, go ahead", "ok, go ahead", "decision:upgrade", "Premium plan", False, answered=offer) is None
