"""The offline extractor in five languages, precision first (issue 17): name, home, job, employer, email and likes
in English, French, German, Spanish and Chinese; nothing from sarcasm, "just kidding", someone else's words or a
value that hangs on a pronoun; every fact a sentence that reads right."""

from datetime import date

import pytest

from memory_pipeline.domain.conversations import Conversation
from memory_pipeline.domain.messages import ParsedRow
from memory_pipeline.extractors.offline import OfflineExtractor

EXTRACTOR = OfflineExtractor()


def facts(*turns):
    rows = tuple(ParsedRow(i, None, "turn", role="human", text=t) for i, t in enumerate(turns, 1))
    conversation = Conversation("c", "s", "u", date(2026, 1, 1), None, None, rows, False)
    return EXTRACTOR.extract(conversation, "").facts


def slots(*turns):
    return [(f.attribute, f.fact) for f in facts(*turns)]


@pytest.mark.parametrize("text, expected", [
    # English
    ("My name is Dana. I live in Leeds. I work as a nurse. My email is dana@example.org. I love jazz.", [
        ("name", "User's name is Dana."), ("home_location", "User lives in Leeds."), ("job", "User works as a nurse."),
        ("email", "User's email address is dana@example.org."), ("opinion:jazz", "User loves jazz.")]),
    ("I work at Northwind as a platform engineer.", [
        ("job", "User works as a platform engineer."), ("employer", "User works at Northwind.")]),
    # French
    ("Je m'appelle Claire. J'habite à Lyon. Je travaille comme infirmière chez Airbus. "
     "Mon adresse e-mail est claire@example.fr. J'aime le jazz.", [
        ("name", "L'utilisateur s'appelle Claire."), ("home_location", "L'utilisateur habite à Lyon."),
        ("job", "L'utilisatrice travaille comme infirmière."), ("employer", "L'utilisateur travaille chez Airbus."),
        ("email", "L'adresse e-mail de l'utilisateur est claire@example.fr."),
        ("opinion:le jazz", "L'utilisateur aime le jazz.")]),
    # German
    ("Ich heiße Jonas. Ich wohne in Berlin. Ich arbeite als Lehrer bei Siemens. "
     "Meine E-Mail-Adresse ist jonas@example.de. Ich mag Jazz.", [
        ("name", "Der Nutzer heißt Jonas."), ("home_location", "Der Nutzer wohnt in Berlin."),
        ("job", "Der Nutzer arbeitet als Lehrer."), ("employer", "Der Nutzer arbeitet bei Siemens."),
        ("email", "Die E-Mail-Adresse des Nutzers ist jonas@example.de."), ("opinion:jazz", "Der Nutzer mag Jazz.")]),
    # Spanish
    ("Me llamo Ana. Vivo en Madrid. Soy enfermera. Mi correo es ana@example.es. Me gusta el flamenco.", [
        ("name", "El usuario se llama Ana."), ("home_location", "El usuario vive en Madrid."),
        ("job", "La usuaria es enfermera."), ("email", "El correo electrónico del usuario es ana@example.es."),
        ("opinion:el flamenco", "Al usuario le gusta el flamenco.")]),
    # Chinese
    ("我叫李明。我住在上海。我是一名工程师。我的邮箱是li@example.cn。我喜欢爬山。", [
        ("name", "用户叫李明。"), ("home_location", "用户住在上海。"), ("job", "用户是工程师。"),
        ("email", "用户的邮箱是li@example.cn。"), ("opinion:爬山", "用户喜欢爬山。")]),
])
def test_name_home_job_email_and_likes_in_five_languages(text, expected):
    assert slots(text) == expected


@pytest.mark.parametrize("text, expected", [
    # the employer named first, the job after it: each its own fact, neither holding the other
    ("Je travaille chez Airbus comme ingénieure.", [
        ("job", "L'utilisatrice travaille comme ingénieure."), ("employer", "L'utilisateur travaille chez Airbus.")]),
    ("Ich arbeite bei Siemens als Ingenieurin.", [
        ("job", "Die Nutzerin arbeitet als Ingenieurin."), ("employer", "Der Nutzer arbeitet bei Siemens.")]),
    ("Trabajo en Telefónica como programador.", [
        ("job", "El usuario trabaja como programador."), ("employer", "El usuario trabaja en Telefónica.")]),
])
def test_an_employer_said_before_the_job_is_not_stored_with_it(text, expected):
    assert slots(text) == expected


def test_a_chinese_change_of_preference_fills_the_old_slot_with_the_new_stance():
    assert [(f.attribute, f.value) for f in facts("我喜欢小狗。")] == [("opinion:小狗", "likes")]
    changed = facts("我现在更喜欢小猫，不太喜欢小狗了。")
    assert [(f.attribute, f.value, f.fact) for f in changed] == [
        ("opinion:小猫", "likes", "用户现在更喜欢小猫。"), ("opinion:小狗", "does not like", "用户不太喜欢小狗。")]


@pytest.mark.parametrize("text", [
    "Oh great, I just love waiting in line for two hours.",         # sarcasm
    "Yeah right, I love Mondays.",
    "I love being stuck in traffic /s",
    "My favourite colour is blue, just kidding.",                     # taken back
    "I live in Paris. Just kidding!",
    'The guy at the bar kept saying "I\'m allergic to walnuts, I live in Oslo." Weird night.',  # another's words
    "My colleague told me she lives in Berlin.",
    "Anna said she loves jazz.",
    'Er sagte: "Ich wohne in Berlin."',
    "I love it and that'll keep my confidence up.",                  # a pronoun nobody resolves
    "I like you.",
    "I like this.",
    "J'aime ça.",
    "Ich mag es.",
    "我喜欢它。",
    "I like the new cleanup approach better, can we just write to /tmp instead?",  # a comparison without its term
    "I like the actors and the plot, especially the ending.",        # "the plot" of what?
    "I like shooting people.",                                         # violence read literally
])
def test_no_fact_from_sarcasm_jokes_other_peoples_words_or_dangling_references(text):
    assert facts(text) == []


def test_what_is_said_after_just_kidding_still_counts():
    assert slots("I live in Paris, just kidding. I live in Lyon.") == [("home_location", "User lives in Lyon.")]


@pytest.mark.parametrize("text, fact", [
    ("We decided that production deploys are allowed on Fridays.",
     "User decided that production deploys are allowed on Fridays."),
    ("I decided to take the train.", "User decided to take the train."),
    ("We decided not to deploy on Fridays.", "User decided not to deploy on Fridays."),
    ('My favourite book is "The Kite Runner."', 'User\'s favourite book is "The Kite Runner".'),
    ("I love my job - even on Mondays.", "User loves their job."),
    ("I bought a suitcase yesterday.", "User bought a suitcase yesterday."),  # dated by validation, not a decision
])
def test_facts_read_as_sentences(text, fact):
    (found,) = facts(text)
    assert found.fact == fact
    assert found.fact.count('"') % 2 == 0 and found.fact.endswith(".")


@pytest.mark.parametrize("text, attribute", [
    ("Can you forget my phone number?", "phone_number"),
    ("Please delete my email address.", "email"),
    ("Peux-tu oublier mon adresse e-mail ?", "email"),
    ("Vergiss meine Telefonnummer.", "phone_number"),
    ("¿Puedes olvidar mi número de teléfono?", "phone_number"),
    ("能不能忘掉我的电话号码？", "phone_number"),
    ("I don't live in Oslo anymore.", "home_location"),
    ("Ich wohne nicht mehr in Berlin.", "home_location"),
    ("Ya no vivo en Madrid.", "home_location"),
    ("我已经不住在北京了。", "home_location"),
])
def test_retractions_as_statements_requests_and_questions(text, attribute):
    (found,) = facts(text)
    assert found.retraction and found.attribute == attribute
